/**
 * The bell of the top bar: my unread notifications as a count, live over the socket; opening it
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
  // The count comes over the socket (on connect, then on every change), so it is listened to here, outside the
  // Suspense of the bell's texts: an event that arrives while they load is not lost.
  const socket = useContext(ProfileSocketContext);
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    if (!socket) return;
    return socket.subscribe((event) => {
      if (event.type !== 'NOTIFICATION.NEW' && event.type !== 'NOTIFICATION.UNREAD') return;
      setUnread(event.type === 'NOTIFICATION.NEW' ? event.event.unread : event.unread);
      // An open list is read again for its order and page; a closed one when it next opens.
      void queryClient.invalidateQueries({ queryKey: notificationKeys.list() });
    });
  }, [socket]);
  return (
    <QueryClientProvider client={queryClient}>
      <Suspense fallback={null}>
        <Bell account={account} unread={unread} setUnread={setUnread} />
      </Suspense>
    </QueryClientProvider>
  );
}

/**
 * The bell: the unread count it is given, and the newest notifications, read only while the list is open (the
 * shell makes no request of its own for the bell on a page load).
 */
function Bell({
  account,
  unread,
  setUnread,
}: {
  account: Account;
  unread: number;
  setUnread: (unread: number) => void;
}) {
  const { t } = useTranslation('notifications');
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const key = [...notificationKeys.list(), accountKey(account)];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listNotifications({ signal }),
    enabled: open,
  });
  // A list read says the count too (the socket may have been down when it changed).
  const listed = list.data?.unread;
  useEffect(() => {
    if (listed !== undefined) setUnread(listed);
  }, [listed, setUnread]);
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
