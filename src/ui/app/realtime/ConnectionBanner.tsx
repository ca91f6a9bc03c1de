import { Callout, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useRealtime } from './RealtimeProvider';

/** "Connection lost" while the socket is down; it goes once the connection is back and re-synced. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const { t: tc } = useTranslation('calls');
  const realtime = useRealtime();
  if (!realtime || realtime.connected) return null;
  return (
    <Callout
      className="studio-connection-banner"
      intent={Intent.WARNING}
      icon="offline"
      role="status"
      title={t('messages.connectionLost')}
    >
      {tc('realtime.reconnecting')}
    </Callout>
  );
}
