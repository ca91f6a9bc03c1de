import { Button, Callout, Intent } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useTranslation } from 'react-i18next';
import type { ActorRefFrom } from 'xstate';
import { RECONNECT_GRACE_MS } from '#contract/callReconnect';
import type { callMachine } from '../../../machines/call.machine';
import { formatDuration, useWaited } from '../../components/useWaited';

/**
 * "Reconnecting…" while the call's link is down and ICE restarts: how long it has been down, and when the call
 * ends by itself. The agent need not do anything; ending the call stays possible.
 */
export function ReconnectingBanner({ call }: { call: ActorRefFrom<typeof callMachine> }) {
  const { t } = useTranslation('calls');
  const since = useSelector(call, (s) =>
    s.hasTag('reconnecting') && s.context.reconnectingSince !== null
      ? new Date(s.context.reconnectingSince).toISOString()
      : null,
  );
  const waited = useWaited(since);
  if (!since) return null;
  return (
    <Callout intent={Intent.WARNING} icon="refresh" role="status" title={t('call.reconnectingTitle')}>
      <p data-testid="reconnecting-timer">
        {t('call.reconnectingHelp', { time: waited, grace: formatDuration(RECONNECT_GRACE_MS / 1000) })}
      </p>
      <div className="studio-actions">
        <Button
          intent={Intent.DANGER}
          icon="phone"
          text={t('call.endCall')}
          onClick={() => call.send({ type: 'HANG_UP' })}
        />
      </div>
    </Callout>
  );
}
