/**
 * The bell of the top bar (issue 30): my unread notifications as a count, live over the socket; opening it
 * lists the newest (who mentioned me, on which profile, when, a snippet), each a link to the profile that marks
 * it read; "Mark all read".
 */
import {
  Button,
  Callout,
  Classes,
  H5,
  Intent,
  Menu,
  MenuItem,
  NonIdealState,
  PopoverNext,
  Spinner,
  Tag,
} from '@blueprintjs/core';
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Notification, NotificationPage } from '#contract/notifications';
import { type Account, accountKey } from '../../../services/accounts';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationKeys,
} from '../../../services/api/notifications';
import { useFormat } from '../../format';
import { showError } from '../../toaster';
import { queryClient } from '../queryClient';
import { ProfileSocketContext } from './ProfileSocket';

export function NotificationBell({ account }: { account: Account }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <Bell account={account} />
      </Suspense>
    </QueryClientProvider>
  );
}

function Bell({ account }: { account: Account }) {
  const { t } = useTranslation('notifications');
  const client = useQueryClient();
  const socket = useContext(ProfileSocketContext);
  const key = [...notificationKeys.list(), accountKey(account)];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => listNotifications({ signal }) });
  const [open, setOpen] = useState(false);
  const keyText = JSON.stringify(key);
  useEffect(() => {
    if (!socket) return;
    const queryKey = JSON.parse(keyText) as string[];
    return socket.subscribe((event) => {
      if (event.type === 'NOTIFICATION.NEW') {
        // The count moves at once; the list is read again for its order and page.
        client.setQueryData<NotificationPage>(queryKey, (page) =>
          page ? { ...page, unread: event.event.unread } : page,
        );
        void client.invalidateQueries({ queryKey });
      } else if (event.type === 'NOTIFICATION.UNREAD') {
        client.setQueryData<NotificationPage>(queryKey, (page) =>
          page ? { ...page, unread: event.unread } : page,
        );
        void client.invalidateQueries({ queryKey });
      } else if (event.type === 'CONNECTION.RESTORED') {
        void client.invalidateQueries({ queryKey });
      }
    });
  }, [socket, client, keyText]);
  const unread = list.data?.unread ?? 0;
  const label = unread > 0 ? t('bell.labelUnread', { count: unread }) : t('bell.label');
  return (
    <PopoverNext
      placement="bottom-end"
      isOpen={open}
      onInteraction={(next) => setOpen(next)}
      content={
        <BellPanel
          page={list.data}
          pending={list.isPending}
          failed={list.isError}
          retry={() => list.refetch()}
          close={() => setOpen(false)}
          refresh={() => client.invalidateQueries({ queryKey: key })}
        />
      }
    >
      {/* The popover's target is the button itself: it carries aria-expanded, which a span may not. */}
      <Button
        variant="minimal"
        icon="notifications"
        aria-label={label}
        data-testid="notification-bell"
        className="studio-bell"
      >
        {unread > 0 && (
          <Tag round intent={Intent.DANGER} className="studio-bell-count" aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </Tag>
        )}
      </Button>
    </PopoverNext>
  );
}

function BellPanel({
  page,
  pending,
  failed,
  retry,
  close,
  refresh,
}: {
  page: NotificationPage | undefined;
  pending: boolean;
  failed: boolean;
  retry: () => void;
  close: () => void;
  refresh: () => Promise<void>;
}) {
  const { t } = useTranslation('notifications');
  const [, navigate] = useLocation();
  const [busy, setBusy] = useState(false);
  const markAll = async () => {
    setBusy(true);
    try {
      await markAllNotificationsRead();
      await refresh();
    } catch {
      void showError(t('bell.markFailed'));
    } finally {
      setBusy(false);
    }
  };
  const openOne = async (notification: Notification) => {
    close();
    navigate(`~/profile/${notification.profile.id}`);
    if (notification.read_at) return;
    try {
      await markNotificationRead(notification.id);
      await refresh();
    } catch {
      void showError(t('bell.markFailed'));
    }
  };
  return (
    <section className="studio-bell-panel" aria-label={t('bell.title')}>
      <header className="studio-bell-header">
        <H5 className={Classes.TEXT_OVERFLOW_ELLIPSIS}>{t('bell.title')}</H5>
        <Button
          variant="minimal"
          size="small"
          icon="tick"
          text={t('bell.markAll')}
          disabled={!page || page.unread === 0}
          loading={busy}
          onClick={markAll}
        />
      </header>
      {failed ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert" title={t('bell.loadFailed')}>
          <Button icon="refresh" text={t('bell.retry')} onClick={retry} />
        </Callout>
      ) : pending || !page ? (
        <Spinner size={20} />
      ) : page.results.length === 0 ? (
        <NonIdealState icon="notifications" title={t('bell.empty')} description={t('bell.emptyHint')} />
      ) : (
        <Menu aria-label={t('bell.title')} className="studio-bell-list">
          {page.results.map((n) => (
            <NotificationItem key={n.id} notification={n} onOpen={() => openOne(n)} />
          ))}
        </Menu>
      )}
    </section>
  );
}

function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: () => void }) {
  const { t } = useTranslation('notifications');
  const date = useFormat().dateTime;
  const unread = notification.read_at === null;
  const title = t('bell.mention', {
    actor: notification.actor?.name ?? t('bell.someone'),
    profile: notification.profile.name || t('bell.unnamedProfile', { id: notification.profile.id }),
  });
  return (
    <MenuItem
      icon={unread ? 'dot' : 'blank'}
      className={unread ? 'studio-bell-unread' : undefined}
      href={`/profile/${notification.profile.id}`}
      onClick={(event) => {
        event.preventDefault();
        onOpen();
      }}
      multiline
      aria-label={unread ? `${t('bell.unread')}: ${title}` : title}
      text={
        <div>
          <div className="studio-bell-title">{title}</div>
          <div className={Classes.TEXT_MUTED}>
            {t('bell.snippet', { snippet: notification.note.snippet })}
          </div>
          <div className={`${Classes.TEXT_MUTED} ${Classes.TEXT_SMALL}`}>{date(notification.created_at)}</div>
        </div>
      }
    />
  );
}
