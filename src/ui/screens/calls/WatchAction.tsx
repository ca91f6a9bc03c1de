import { AnchorButton } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { mayMonitorCalls } from '#contract/constants';
import type { Account } from '../../../services/accounts';

/** Whether the account may watch calls (the server decides each watch again). */
export const mayWatch = (account: Pick<Account, 'role' | 'permissions'> | null | undefined) =>
  !!account && mayMonitorCalls({ ...account, isApiUser: false });

/** Watch: opens the wall with this talking call added (docs/decisions/0208-supervisors-watch-calls.md). */
export function WatchAction({ callId }: { callId: number }) {
  const { t } = useTranslation('calls');
  return (
    <Link href={`~/watch?add=${callId}`} asChild>
      <AnchorButton
        role="link"
        small
        icon="eye-open"
        text={t('watch.action')}
        aria-label={t('watch.actionLabel', { id: callId })}
        data-testid={`watch-${callId}`}
      />
    </Link>
  );
}
