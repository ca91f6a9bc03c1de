import { Callout, H4 } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../services/api/http';
import { askSummary } from '../../../services/api/profileWrites';
import { TextForm } from '../../components/TextForm';
import { showError } from '../../toaster';

/** AI Agent: questions about the customer and the summariser's answers, newest last (POST /profile/{id}/generate_summary). */
export function AiAgentTab({ profileId }: { profileId: number }) {
  const { t } = useTranslation('profile');
  const { t: tc } = useTranslation();
  const [exchanges, setExchanges] = useState<{ question: string; answer: string }[]>([]);
  const ask = (question: string) =>
    askSummary(profileId, question).then(
      ({ summary }) => setExchanges((current) => [...current, { question, answer: summary }]),
      (error: unknown) => {
        void showError(isApiError(error) && error.detail ? error.detail : tc('messages.error'));
        throw error;
      },
    );
  return (
    <section aria-labelledby="agent-title">
      <H4 id="agent-title">{t('agent.title')}</H4>
      <p className="studio-muted">{t('agent.intro')}</p>
      <ol className="studio-log" aria-label={t('agent.title')}>
        {exchanges.map((exchange, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: exchanges are only appended.
          <li key={index}>
            <strong>{t('agent.you')}:</strong> {exchange.question}
            <Callout icon="manual" title={t('agent.agent')} className="studio-ai-answer">
              {exchange.answer}
            </Callout>
          </li>
        ))}
      </ol>
      <TextForm
        label={t('ai.label')}
        placeholder={t('ai.placeholder')}
        submitText={t('ai.ask')}
        min={10}
        onSubmit={ask}
      />
    </section>
  );
}
