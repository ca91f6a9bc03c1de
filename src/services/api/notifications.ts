/** The bell and mentions: GET /notifications, marking read, the colleagues to mention. */
import type { Colleague, Notification, NotificationPage } from '#contract/notifications';
import { api } from './http';

interface Options {
  signal?: AbortSignal;
}

export const notificationKeys = {
  all: ['notifications'] as const,
  list: () => [...notificationKeys.all, 'list'] as const,
  colleagues: () => [...notificationKeys.all, 'colleagues'] as const,
};

/** The newest of my notifications (one page) with my unread count. */
export const listNotifications = ({ signal }: Options = {}) =>
  api.get('notifications', { searchParams: { limit: 20 }, signal }).json<NotificationPage>();

export const markNotificationRead = (id: number) => api.post(`notifications/${id}/read`).json<Notification>();

export const markAllNotificationsRead = () =>
  api.post('notifications/read_all').json<{ marked: number; unread: number }>();

export const listColleagues = ({ signal }: Options = {}) =>
  api.get('notifications/colleagues', { signal }).json<Colleague[]>();
