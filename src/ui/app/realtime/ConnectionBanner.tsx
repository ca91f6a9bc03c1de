import { Callout, Intent } from '@blueprintjs/core';
import { IconSize, Icons } from '@blueprintjs/icons';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRealtime } from './RealtimeProvider';

/**
 * The banner's icon, loaded while the server is still there: drawn on demand, it would be fetched from the
 * server just when it cannot be reached (and the call page's warning uses it too).
 */
const preloadOfflineIcon = () => void Icons.load('offline', IconSize.STANDARD).catch(() => undefined);

/** "Connection lost" while the socket is down; it goes once the connection is back and re-synced. */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const { t: tc } = useTranslation('calls');
  const realtime = useRealtime();
  useEffect(preloadOfflineIcon, []);
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
