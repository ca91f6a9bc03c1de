import { Button, Callout, Card, H4, HTMLTable, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../../machines/failure';
import { accounts } from '../../../services/accounts';
import { endSession, listSessions, type SessionInfo, sessionKeys } from '../../../services/api/sessions';
import { describeUserAgent } from '../../../services/userAgent';
import { reloadPage } from '../../app/reload';
import { useActiveAccount } from '../../app/useAccounts';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useFormat } from '../../format';
import { showSuccess } from '../../toaster';

/**
 * The user's active sessions on this server: browser, address, sign-in and last seen, "This
 * device" for the one of this browser, and End session (confirmed). Ending this browser's own session is
 * a logout.
 */
export function SessionsCard() {
  const { t } = useTranslation('sessions');
  const account = useActiveAccount();
  const queryClient = useQueryClient();
  const key = sessionKeys.list(account?.server ?? '', account?.id ?? 0);
  const sessions = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listSessions({ signal }),
    enabled: !!account,
  });
  const [ending, setEnding] = useState<SessionInfo | null>(null);
  const end = useMutation({
    mutationFn: (session: SessionInfo) => endSession(session.id),
    onSuccess: (_, session) => {
      setEnding(null);
      if (session.current) {
        accounts.logout();
        reloadPage();
        return;
      }
      void showSuccess(t('ended'));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });

  const when = useFormat().dateTime;
  const browserOf = (session: SessionInfo) => {
    const { browser, os } = describeUserAgent(session.user_agent);
    if (!browser) return t('unknownBrowser');
    return os ? t('browserOn', { browser, os }) : browser;
  };
  const addressOf = (session: SessionInfo) => session.ip ?? t('unknownAddress');
  const failure = end.isError ? failureOf(end.error).detail : null;

  return (
    <Card className="studio-settings-card">
      <H4 id="settings-sessions-title">{t('title')}</H4>
      <p>{t('intro')}</p>
      {sessions.isPending && <Spinner size={24} aria-label={t('title')} />}
      {sessions.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          <p>{t('loadFailed')}</p>
          <Button text={t('retry')} icon="refresh" onClick={() => void sessions.refetch()} />
        </Callout>
      )}
      {sessions.data && sessions.data.length === 0 && <NonIdealState icon="desktop" title={t('empty')} />}
      {sessions.data && sessions.data.length > 0 && (
        <HTMLTable compact className="studio-table" aria-labelledby="settings-sessions-title">
          <thead>
            <tr>
              <th scope="col">{t('browser')}</th>
              <th scope="col">{t('address')}</th>
              <th scope="col">{t('signedIn')}</th>
              <th scope="col">{t('lastSeen')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.map((session) => (
              <tr key={session.id} data-session={session.id}>
                <td title={session.user_agent}>
                  {browserOf(session)}{' '}
                  {session.current && (
                    <Tag minimal intent={Intent.PRIMARY}>
                      {t('thisDevice')}
                    </Tag>
                  )}
                </td>
                <td>{addressOf(session)}</td>
                <td>{when(session.created_at)}</td>
                <td>{when(session.last_seen_at)}</td>
                <td className="studio-nowrap">
                  <Button
                    variant="minimal"
                    icon="log-out"
                    intent={Intent.DANGER}
                    text={t('end')}
                    aria-label={t('endNamed', { browser: browserOf(session) })}
                    onClick={() => {
                      end.reset();
                      setEnding(session);
                    }}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <ConfirmDialog
        isOpen={ending !== null}
        title={t('endTitle')}
        icon="log-out"
        cancel={t('cancel')}
        confirm={t('end')}
        busy={end.isPending}
        onConfirm={() => {
          if (ending) end.mutate(ending);
        }}
        onClose={() => setEnding(null)}
      >
        {failure && (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            {failure}
          </Callout>
        )}
        <p>
          {ending?.current
            ? t('endBodyCurrent')
            : t('endBody', {
                browser: ending ? browserOf(ending) : '',
                address: ending ? addressOf(ending) : '',
              })}
        </p>
      </ConfirmDialog>
    </Card>
  );
}
