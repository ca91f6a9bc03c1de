/** The bell: a user's own notifications. docs/review.md "Mentions and notifications". */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import {
  colleagueSchema,
  notificationListQuery,
  notificationPageSchema,
  notificationSchema,
  readAllAnswerSchema,
} from '#contract/notifications';
import type { AppContext } from '../context';
import {
  listColleagues,
  listNotifications,
  markAllRead,
  markRead,
  mentionContext,
  readNotification,
  type recordMentions,
  snippetOf,
  unreadCount,
} from '../domain/notifications';
import { need, principalOf, SIGNED_IN } from '../http/access';
import { toPage } from '../http/paging';
import { sendTemplated } from '../integrations/mailTemplates/send';
import { authErrors } from './shared';

/** Every signed-in staff user has a bell; the colleagues list is for those who write notes. */
const anyone = SIGNED_IN;
const tags = ['notifications'];

/**
 * After a note with mentions is committed: each mentioned colleague's sockets hear `notification.new`, and an
 * away colleague gets an e-mail too (sent after the answer, through the mail integration).
 */
export async function announceMentions(
  ctx: AppContext,
  actor: { userId: number; companyId: number },
  note: { profile: number; note: string },
  told: Awaited<ReturnType<typeof recordMentions>>,
): Promise<void> {
  if (told.length === 0) return;
  for (const person of told) {
    const notification = await readNotification(ctx.db, person.id, actor.companyId, person.notificationId);
    ctx.userPush.notification(person.id, {
      notification,
      unread: await unreadCount(ctx.db, person.id, actor.companyId),
    });
  }
  const away = told.filter((p) => p.away);
  if (away.length === 0) return;
  ctx.mail.defer(async () => {
    const names = await mentionContext(ctx.db, actor.userId, note.profile);
    const link = `${ctx.config.publicUrl}/profile/${note.profile}`;
    for (const person of away) {
      await sendTemplated(
        ctx,
        'mention',
        { email: person.email, companyId: actor.companyId },
        { ...names, note: snippetOf(note.note), link },
      );
    }
  });
}

export function notificationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/notifications',
      {
        config: { access: anyone },
        schema: {
          summary: 'My notifications',
          tags,
          description:
            'Your own notifications (today: mentions in profile notes), newest first, with paging; `unread=true` ' +
            'lists only the unread ones. `unread` in the answer counts all your unread notifications.',
          querystring: notificationListQuery,
          response: { 200: notificationPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { id, companyId } = principalOf(request);
        const { count, results, unread } = await listNotifications(ctx.db, id, companyId, request.query);
        return { ...toPage(request, request.query, count, results), unread };
      },
    );

    app.post(
      '/notifications/:id/read',
      {
        config: { access: anyone },
        schema: {
          summary: 'Mark a notification read',
          tags,
          description:
            'Only your own: another user’s notification answers 404. Marking it again changes nothing.',
          params: idParams,
          response: { 200: notificationSchema, ...authErrors },
        },
      },
      async (request) => {
        const { id, companyId } = principalOf(request);
        const notification = await markRead(ctx.db, id, companyId, request.params.id);
        ctx.userPush.unread(id, await unreadCount(ctx.db, id, companyId));
        return notification;
      },
    );

    app.post(
      '/notifications/read_all',
      {
        config: { access: anyone },
        schema: {
          summary: 'Mark all my notifications read',
          tags,
          response: { 200: readAllAnswerSchema, ...authErrors },
        },
      },
      async (request) => {
        const { id, companyId } = principalOf(request);
        const answer = await markAllRead(ctx.db, id, companyId);
        ctx.userPush.unread(id, answer.unread);
        return answer;
      },
    );

    app.get(
      '/notifications/colleagues',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: 'Colleagues to mention in a note',
          tags,
          description:
            'The active staff of your company other than you, by name, each with the `handle` that mentions them ' +
            'in a note (`@handle`): the e-mail local part, or the whole address when two colleagues share it.',
          response: { 200: z.array(colleagueSchema), ...authErrors },
        },
      },
      async (request) => {
        const { id, companyId } = principalOf(request);
        return listColleagues(ctx.db, companyId, id);
      },
    );
  };
}
