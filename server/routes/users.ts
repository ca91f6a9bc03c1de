import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { socketTokenBodySchema, socketTokenResponseSchema } from '#contract/auth';
import { errorSchema, idParams } from '#contract/common';
import {
  changePasswordBodySchema,
  otpResetBodySchema,
  otpResetResponseSchema,
  otpVerifyBodySchema,
  userCreateBodySchema,
  userListQuerySchema,
  userPageSchema,
  userPhotoBodySchema,
  userResetPasswordBodySchema,
  userSchema,
  userUpdateBodySchema,
} from '#contract/users';
import type { AppContext } from '../context';
import { otpReset, otpVerify, setAuthPhoto } from '../domain/account';
import type { Principal } from '../domain/principal';
import {
  changeOwnPassword,
  createUser,
  forcePasswordReset,
  isOwnProfileEdit,
  updateUser,
} from '../domain/userAdmin';
import { getUser, listUsers } from '../domain/users';
import { forbidden, notFound } from '../errors';
import { checkAccess, need, principalOf, SIGNED_IN, SIGNED_IN_OR_MFA_SETUP } from '../http/access';
import { toPage } from '../http/paging';
import { userRoom } from '../realtime/rooms';

const errors = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema };

/** A base64 photo of 5 MB is about 6.7 MB of JSON. */
const PHOTO_BODY_LIMIT = 8 * 1024 * 1024;

export function userRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  /** Two-factor and photo changes are the caller's own: another user's id is 403 (404 in another company). */
  async function ownUser(me: Principal, id: number): Promise<void> {
    if (id === me.id) return;
    const other = await getUser(ctx.db, ctx.storage, me.companyId, id);
    throw other ? forbidden() : notFound();
  }

  const ADMIN = need('view_admin_page', { admin: true });

  return async (app) => {
    app.get(
      '/user',
      {
        config: { access: ADMIN },
        schema: {
          tags: ['users'],
          summary: 'List the users of the company',
          description:
            'Admins only. `search` matches name or e-mail; filters `role`, `is_active`; `ordering` id, name, ' +
            'username, role or last_login (`-` for descending).',
          querystring: userListQuerySchema,
          response: { 200: userPageSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const { count, results } = await listUsers(ctx.db, ctx.storage, me.companyId, request.query);
        return toPage(request, request.query, count, results);
      },
    );

    app.get(
      '/user/:id',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          summary: 'Read a user',
          description: 'Any signed-in user may read themself; reading another user needs the Admin role.',
          params: idParams,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const { id } = request.params;
        if (id !== me.id && me.role !== 'Admin') {
          // Another company's id is unknown here (404); a colleague's is forbidden.
          const user = await getUser(ctx.db, ctx.storage, me.companyId, id);
          throw user ? forbidden() : notFound();
        }
        const user = await getUser(ctx.db, ctx.storage, me.companyId, id);
        if (!user) throw notFound();
        return user;
      },
    );

    app.post(
      '/user',
      {
        config: { access: ADMIN },
        schema: {
          tags: ['users'],
          summary: 'Invite a user',
          description:
            'Admins only; `password` is the admin’s own (400 `Wrong password`). The user gets an invitation ' +
            'e-mail with a link to set their own password (valid 7 days). E-mail unique per company (6 to 254 characters, local part up to 64).',
          body: userCreateBodySchema,
          response: { 201: userSchema, ...errors },
        },
      },
      async (request, reply) => {
        const user = await createUser(ctx, principalOf(request), request.body);
        return reply.code(201).send(user);
      },
    );

    app.patch(
      '/user/:id',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          summary: 'Edit, enable / disable a user, or force / reset their two-factor',
          description:
            'Admins: any field of a user of their company, with their own `password`. Anyone: their own ' +
            '`first_name`, `last_name`, `phone`, `start_page` (`customers` or `review`, the screen `/` ' +
            'opens; `review` takes effect only with review_profiles) and `mail_language` (`en`, `tr`, or null for ' +
            'the company’s) without it. Nobody disables themself; the last enabled Admin ' +
            'is never disabled or demoted. A disabled user’s tokens stop working at once and their sockets close.',
          params: idParams,
          body: userUpdateBodySchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const { id } = request.params;
        if (!isOwnProfileEdit(me, id, request.body))
          checkAccess(me, { permission: 'view_admin_page', admin: true });
        const user = await updateUser(ctx, me, id, request.body);
        if (request.body.is_active === false) request.server.hub?.io.in(userRoom(id)).disconnectSockets(true);
        else if (request.body.role !== undefined || request.body.groups !== undefined)
          await request.server.hub?.refreshAccess([id]);
        return user;
      },
    );

    app.post(
      '/user/:id/reset_password',
      {
        config: { access: ADMIN },
        schema: {
          tags: ['users'],
          summary: 'Force a password reset',
          description:
            'Admins only, with their own `password`; `email`, when sent, must be the user’s. The user’s next ' +
            'sign-in answers 400 `Password Reset Required`; their sessions end at once (their tokens get 401).',
          params: idParams,
          body: userResetPasswordBodySchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) =>
        forcePasswordReset(ctx, principalOf(request), request.params.id, request.body, request.sessionId),
    );

    app.post(
      '/user/:id/change_password',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          summary: 'Change one’s own password',
          description:
            'Own user only; `password` is the current one (400 `Wrong password`), `new_password` follows the password rule. ' +
            'Every other session of the user ends (their tokens get 401); this one stays.',
          params: idParams,
          body: changePasswordBodySchema,
          response: { 200: z.object({ detail: z.string() }), ...errors },
        },
      },
      async (request) => {
        await changeOwnPassword(
          ctx,
          principalOf(request),
          request.params.id,
          request.body,
          request.sessionId,
        );
        return { detail: 'Password successfully changed' };
      },
    );

    app.post(
      '/user/socket_token',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          summary: 'Get a socket token',
          description: 'A short-lived token for the socket.io connection (`auth: { token }`).',
          body: socketTokenBodySchema,
          response: { 200: socketTokenResponseSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const session_id = request.sessionId ?? undefined;
        return {
          token: await ctx.tokens.signSocket({ user_id: me.id, company_id: me.companyId, session_id }),
        };
      },
    );

    app.post(
      '/user/:id/otp_reset',
      {
        config: { access: SIGNED_IN_OR_MFA_SETUP },
        schema: {
          tags: ['users'],
          summary: 'Start or turn off two-factor authentication',
          description:
            'Own user only, password confirmed. `disable: false`: a new TOTP secret, pending until `otp_verify`; ' +
            '`disable: true`: two-factor off. Also accepts the restricted token of a forced two-factor setup.',
          params: idParams,
          body: otpResetBodySchema,
          response: { 200: otpResetResponseSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        await ownUser(me, request.params.id);
        return otpReset(ctx, me.companyId, me.id, request.body);
      },
    );

    app.post(
      '/user/:id/otp_verify',
      {
        config: { access: SIGNED_IN_OR_MFA_SETUP },
        schema: {
          tags: ['users'],
          summary: 'Verify two-factor authentication',
          description:
            'Own user only, password confirmed. The secret must be the pending one and the code valid now: ' +
            'two-factor on, forced two-factor reset cleared. 400 `Invalid code` otherwise.',
          params: idParams,
          body: otpVerifyBodySchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        await ownUser(me, request.params.id);
        return otpVerify(ctx, me.companyId, me.id, request.body);
      },
    );

    app.post(
      '/user/:id/photo',
      {
        config: { access: SIGNED_IN },
        bodyLimit: PHOTO_BODY_LIMIT,
        schema: {
          tags: ['users'],
          summary: 'Set the sign-in photo',
          description:
            'Own user only, password confirmed. `photo`: a data URL of a JPEG or PNG (checked by its bytes), ' +
            'at most 5 MB. Later logins of this user need a face photo that matches it.',
          params: idParams,
          body: userPhotoBodySchema,
          response: { 200: userSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        await ownUser(me, request.params.id);
        return setAuthPhoto(ctx, me.companyId, me.id, request.body);
      },
    );
  };
}
