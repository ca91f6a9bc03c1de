import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Told when the company says so (its setting, on by default): a supervisor may join the call for quality
 * purposes. Read once per page with the join link's token; nothing is shown when it cannot be read.
 */
export function SupervisorNotice({ token }: { token: string }) {
  const { t } = useTranslation('customer');
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    fetch(`${window.location.origin}/api/v2/videocall/watch_notice`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: controller.signal,
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((body: { customer_notice?: unknown } | null) => setShown(body?.customer_notice === true))
      .catch(() => undefined);
    return () => controller.abort();
  }, [token]);
  if (!shown) return null;
  return (
    <p className="customer-muted" data-testid="supervisor-notice">
      {t('supervisorNotice')}
    </p>
  );
}
