import { H4, HTMLTable, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { BusinessEntity, QuestionAnswer } from '#contract/entities';
import { type CHOICE_OPTIONS, ENTITY_QUESTIONS } from '../../../services/entities/sampleEntities';
import { useCountryName } from '../entities/entityLabels';

/** Questionnaire: the ten questions by sort order (1 to 10) with this entity's answers. */
export function QuestionnaireTab({ entity }: { entity: BusinessEntity }) {
  const { t } = useTranslation('entities');
  const ordered = [...ENTITY_QUESTIONS].sort((a, b) => a.sort_order - b.sort_order);
  return (
    <section className="studio-entity-tab" aria-labelledby="entity-questionnaire-title">
      <H4 id="entity-questionnaire-title">{t('questionnaire.title')}</H4>
      <HTMLTable compact striped className="studio-table" aria-labelledby="entity-questionnaire-title">
        <thead>
          <tr>
            <th scope="col">{t('questionnaire.order')}</th>
            <th scope="col">{t('questionnaire.question')}</th>
            <th scope="col">{t('questionnaire.answer')}</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((question) => (
            <tr key={question.id}>
              <td className="studio-question-order">{question.sort_order}</td>
              <td className="studio-question-title">
                {t(`questionnaire.q.${question.id}`)}{' '}
                {question.optional && (
                  <Tag minimal round>
                    {t('questionnaire.optional')}
                  </Tag>
                )}
              </td>
              <td>
                <Answer answer={entity.questionnaire[question.id]} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  );
}

type ChoiceValue = (typeof CHOICE_OPTIONS)[keyof typeof CHOICE_OPTIONS][number];

function Answer({ answer }: { answer: QuestionAnswer }) {
  const { t, i18n } = useTranslation('entities');
  const country = useCountryName();
  if (answer.type === 'skipped') return <Tag minimal>{t('questionnaire.skipped')}</Tag>;
  if (answer.type === 'yesNo') return <>{answer.value ? t('questionnaire.yes') : t('questionnaire.no')}</>;
  if (answer.type === 'countries') {
    return (
      <>{new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(answer.value.map(country))}</>
    );
  }
  // Choice answers' keys are checked against CHOICE_OPTIONS by the sample-data unit test.
  return <>{t(`questionnaire.option.${answer.value as ChoiceValue}`)}</>;
}
