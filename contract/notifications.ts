/**
 * Notifications: @mentions in profile notes. The mention syntax is parsed here, the same for
 * the studio's editor and the server (docs/decisions/0152-mentions-and-bell.md).
 */
import { z } from 'zod';
import { isoDateTime, pageSchema, pagingQuery, queryBoolean } from './common';

/**
 * A mention: `@` at the start of the text or after a character that cannot be part of an address (space,
 * punctuation other than `.`, `_`, `+`, `-`, `@`), then a colleague's e-mail local part (`@agent`) or, where
 * two colleagues share a local part, the whole address (`@agent@acme.test`). Dots, hyphens and plus signs that
 * end it are punctuation (`@agent.` mentions `agent`). Matching is case-insensitive.
 */
const MENTION =
  /(^|[^\p{L}\p{N}._+\-@])@([\p{L}\p{N}_][\p{L}\p{N}._+-]*(?:@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)?)/gu;

/** The distinct handles mentioned in a text, lower-case, in order of appearance. */
export function parseMentions(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(MENTION)) {
    const handle = (match[2] ?? '').replace(/[.+-]+$/u, '').toLowerCase();
    if (handle && !found.includes(handle)) found.push(handle);
  }
  return found;
}

/**
 * The handle being typed at the caret (`@ag|` → `ag`), with where its `@` stands; null when the caret is not
 * in a mention. The editor's autocomplete opens on it.
 */
export function mentionAt(text: string, caret: number): { query: string; start: number } | null {
  const before = text.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}._+\-@])@([\p{L}\p{N}._+-]*)$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { query, start: caret - query.length - 1 };
}

/** How a colleague is mentioned: the local part when no other colleague shares it, else the whole address. */
export function mentionHandle(email: string, sameLocalPart: number): string {
  const lower = email.toLowerCase();
  return sameLocalPart > 1 ? lower : (lower.split('@')[0] ?? lower);
}

export const NOTIFICATION_KINDS = ['mention'] as const;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(NOTIFICATION_KINDS),
  profile: z.object({ id: z.number().int(), name: z.string() }),
  note: z.object({ id: z.number().int(), snippet: z.string() }),
  /** Who mentioned you; null once that user is deleted. */
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: isoDateTime,
  read_at: isoDateTime.nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuery = z.strictObject({
  ...pagingQuery,
  /** Only the unread ones. */
  unread: queryBoolean.optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuery>;

export const notificationPageSchema = pageSchema(notificationSchema).extend({
  /** The caller's unread notifications (all of them, not only this page). */
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const readAllAnswerSchema = z.object({ marked: z.number().int(), unread: z.number().int() });

/** A colleague the note editor offers after `@`. */
export const colleagueSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  /** What to type after `@`. */
  handle: z.string(),
});
export type Colleague = z.infer<typeof colleagueSchema>;

/** The socket event `notification.new` (the user's own room only). */
export const notificationEventSchema = z.object({
  notification: notificationSchema,
  unread: z.number().int(),
});
export type NotificationEvent = z.infer<typeof notificationEventSchema>;

/** Longest snippet of the note a notification shows. */
export const SNIPPET_MAX = 120;
export const NOTIFICATION_NOT_FOUND = 'Notification not found';
