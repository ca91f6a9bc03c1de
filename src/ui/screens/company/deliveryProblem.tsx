import { Classes } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** What went wrong with a webhook delivery, in words a company's admin can act on. */
export type DeliveryProblem =
  | { kind: 'tls' | 'dns' | 'refused' | 'reset' | 'timeout' | 'unreachable' }
  | { kind: 'forbidden' | 'invalidUrl' | 'disabled' | 'other' }
  | { kind: 'redirect' | 'client' | 'server' | 'status'; status: number };

const TLS =
  /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(VERIFY|GET)_|EPROTO\b|HOSTNAME_MISMATCH)/;

/**
 * Reads the server's record of an attempt: Node's error code (`CODE: message`, as the sender stores it),
 * the sender's own sentences, or the HTTP status of an answer that was not a success. Null for a success.
 */
export function deliveryProblem(
  error: string | null,
  status: number | null,
  success: boolean,
): DeliveryProblem | null {
  if (success) return null;
  const text = (error ?? '').trim();
  if (text) {
    if (TLS.test(text)) return { kind: 'tls' };
    if (/^(ENOTFOUND|EAI_AGAIN|EAI_NONAME)\b/.test(text)) return { kind: 'dns' };
    if (/^ECONNREFUSED\b/.test(text)) return { kind: 'refused' };
    if (/^(ECONNRESET|EPIPE)\b/.test(text) || /socket hang up/i.test(text)) return { kind: 'reset' };
    if (/^(ETIMEDOUT|ESOCKETTIMEDOUT)\b/.test(text) || text.startsWith('Timed out after'))
      return { kind: 'timeout' };
    if (/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)\b/.test(text)) return { kind: 'unreachable' };
    if (text.includes('private, loopback or link-local')) return { kind: 'forbidden' };
    if (text === 'Invalid URL') return { kind: 'invalidUrl' };
    if (text === 'The endpoint is disabled') return { kind: 'disabled' };
  }
  if (status !== null) {
    if (status >= 300 && status < 400) return { kind: 'redirect', status };
    if (status >= 400 && status < 500) return { kind: 'client', status };
    if (status >= 500) return { kind: 'server', status };
    return { kind: 'status', status };
  }
  return { kind: 'other' };
}

/** The problem in the reader's language, with the raw text kept for the technical reader. */
export function DeliveryProblemText({
  error,
  status,
  success,
}: {
  error: string | null;
  status: number | null;
  success: boolean;
}) {
  const { t } = useTranslation('webhooks');
  const problem = deliveryProblem(error, status, success);
  if (!problem) return null;
  const sentence =
    'status' in problem
      ? t(`problems.${problem.kind}`, { status: problem.status })
      : t(`problems.${problem.kind}`);
  return (
    <>
      <p data-testid="delivery-problem">{sentence}</p>
      {error && (
        <details>
          <summary>{t('problems.technical')}</summary>
          <code className={Classes.TEXT_MUTED}>{error}</code>
        </details>
      )}
    </>
  );
}
