import { Callout, H2, Intent } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { useRealtime } from '../../app/realtime/RealtimeProvider';
import { usePageTitle } from '../../app/usePageTitle';
import { PendingUploads } from './PendingUploads';
import { WaitingQueue } from './WaitingQueue';

/** calls (§2): the live queue, the agents, instant stats and the recordings still to upload. */
export function CallsScreen() {
  const { t } = useTranslation('screens');
  const { t: tc } = useTranslation('calls');
  const realtime = useRealtime();
  const status = useSelector(realtime?.availability, (s) => s?.context.status ?? null);
  usePageTitle(t('calls.title'));
  return (
    <section className="studio-calls" aria-labelledby="page-title">
      <H2 id="page-title">{t('calls.title')}</H2>
      {realtime && status !== null && status !== 'Online' && (
        <Callout intent={Intent.PRIMARY} icon="info-sign">
          {tc('queue.offline')}
        </Callout>
      )}
      {realtime && <WaitingQueue desk={realtime.desk} />}
      <PendingUploads />
    </section>
  );
}
