import { Card, H3, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { QueuedCall } from '#contract/socket';
import { routedOneAtATime } from '../../../machines/callDesk.machine';
import type { RealtimeDesk } from '../../app/realtime/RealtimeProvider';
import { useWaited } from '../../components/useWaited';

/**
 * The customers waiting now, oldest first, as the server pushes them; with one-at-a-time routing, also whom each
 * is being offered to.
 */
export function WaitingQueue({ desk }: { desk: RealtimeDesk['desk'] }) {
  const { t } = useTranslation('calls');
  const queue = useSelector(desk, (s) => s.context.queue);
  const offers = useSelector(desk, (s) => routedOneAtATime(s.context));
  return (
    <Card className="studio-calls-queue">
      <H3>
        {t('queue.title')}{' '}
        <span className="studio-count" data-testid="waiting-count">
          {queue.length}
        </span>
      </H3>
      {queue.length === 0 ? (
        <NonIdealState icon="people" description={t('queue.empty')} />
      ) : (
        <HTMLTable compact striped className="studio-table">
          <thead>
            <tr>
              <th scope="col">{t('queue.position')}</th>
              <th scope="col">{t('queue.customer')}</th>
              <th scope="col">{t('queue.waiting')}</th>
              {offers && <th scope="col">{t('routing.offeredTo')}</th>}
            </tr>
          </thead>
          <tbody>
            {queue.map((call, index) => (
              <QueueRow key={call.call_id} call={call} position={index + 1} offers={offers} />
            ))}
          </tbody>
        </HTMLTable>
      )}
    </Card>
  );
}

function QueueRow({ call, position, offers }: { call: QueuedCall; position: number; offers: boolean }) {
  const { t } = useTranslation('calls');
  const waited = useWaited(call.created_at);
  return (
    <tr>
      <td>{position}</td>
      <td>
        <Link href={`~/profile/${call.profile}`}>{call.profile_name || t('queue.unnamed')}</Link>
      </td>
      <td>{waited}</td>
      {offers && (
        <td data-testid="offered-to">
          {call.offer === undefined
            ? t('routing.everyone')
            : (call.offer?.agent_name ?? t('routing.offeredNobody'))}
        </td>
      )}
    </tr>
  );
}
