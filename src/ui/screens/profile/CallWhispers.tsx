import { Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callWatchKeys, getWhispers } from '../../../services/api/callWatch';

/** What supervisors whispered to the call's agent while they watched, kept with the call for reviewers. */
export function CallWhispers({ callId }: { callId: number }) {
  const { t } = useTranslation('calls');
  const whispers = useQuery({
    queryKey: callWatchKeys.whispers(callId),
    queryFn: ({ signal }) => getWhispers(callId, { signal }),
  });
  if (whispers.isPending) return <Spinner size={16} />;
  if (!whispers.data?.length) return <span className="studio-muted">{t('tab.none')}</span>;
  return (
    <ul className="studio-call-whispers" data-testid={`whispers-${callId}`}>
      {whispers.data.map((whisper) => (
        <li key={whisper.id}>{t('watch.whisperFrom', { name: whisper.author.name, text: whisper.text })}</li>
      ))}
    </ul>
  );
}
