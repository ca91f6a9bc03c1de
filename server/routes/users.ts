import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { socketTokenBodySchema, socketTokenResponseSchema } from '../../src/contract/auth';
import { errorSchema, idParams } from '../../src/contract/common';
import {
  otpResetBodySchema,
  otpResetResponseSchema,
  otpVerifyBodySchema,
  userListQuerySchema,
  userPageSchema,
  userPhotoBodySchema,
  userSchema,
} from '../../src/contract/users';
import type { AppContext } from '../context';
import { otpReset, otpVerify, setAuthPhoto } from '../domain/account';
import type { Principal } from '../domain/principal';
import { getUser, listUsers } from '../domain/users';
import { forbidden, notFound } from '../errors';
import { need, principalOf, SIGNED_IN, SIGNED_IN_OR_MFA_SETUP } from '../http/access';
import { toPage } from '../http/paging';

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

  return async (app) => {
    app.get(
      '/user',
      {
        config: { access: need('view_admin_page', { admin: true }) },
        schema: {
          tags: ['users'],
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
      '/user/socket_token',
      {
        config: { access: SIGNED_IN },
        schema: {
          tags: ['users'],
          description: 'A short-lived token for the socket.io connection (`auth: { token }`).',
          body: socketTokenBodySchema,
          response: { 200: socketTokenResponseSchema, ...errors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        return { token: await ctx.tokens.signSocket({ user_id: me.id, company_id: me.companyId }) };
      },
    );

    app.post(
      '/user/:id/otp_reset',
      {
        config: { access: SIGNED_IN_OR_MFA_SETUP },
        schema: {
          tags: ['users'],
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
