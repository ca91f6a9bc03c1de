import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import {
  ipAllowListBodySchema,
  ipAllowListDeleteBodySchema,
  ipAllowListDeleteQuerySchema,
  ipAllowListEntrySchema,
  ipAllowListLockoutSchema,
  ipAllowListMeSchema,
} from '#contract/ipAllowList';
import type { AppContext } from '../context';
import { addEntry, dropSocketsOutside, isAllowed, listEntries, removeEntry } from '../domain/ipAllowList';
import { notFound } from '../errors';
import { need, principalOf } from '../http/access';
import { companyRoom } from '../realtime/rooms';
import { authErrors } from './shared';

const access = need('view_company_page');
/** Changes: Admins only, as the other company settings (webhooks). */
const adminAccess = need('view_company_page', { admin: true });
const LOCKOUT =
  "409 (`{ detail, address }`) when the change would leave the caller's own address outside a non-empty " +
  'list (the lock-out guard); repeat with `confirm_lockout: true` to make it anyway.';

/** The IP allow-list routes: enforced by `server/domain/ipAllowList.ts`. */
export function ipAllowListRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  /** A change applies at once here (the cache), and to the company's open staff sockets. */
  function afterChange(server: FastifyInstance, companyId: number) {
    ctx.ipAllowList.forget(companyId);
    dropSocketsOutside(
      server.hub.io,
      companyRoom(companyId),
      { ipAllowList: ctx.ipAllowList, trust: ctx.proxyTrust },
      companyId,
    ).catch((error) => server.log.error({ err: error }, 'IP allow-list: dropping sockets failed'));
  }

  return async (app) => {
    const tags = ['company'];

    app.get(
      '/ip-whitelist',
      {
        config: { access },
        schema: {
          summary: 'The IP allow-list',
          description:
            'The addresses and CIDR ranges from which the company’s staff may sign in, call the API and ' +
            'connect sockets. An empty list allows every address.',
          tags,
          response: { 200: z.array(ipAllowListEntrySchema), ...authErrors },
        },
      },
      async (request) => listEntries(ctx.db, principalOf(request).companyId),
    );

    app.get(
      '/ip-whitelist/me',
      {
        config: { access },
        schema: {
          summary: 'The caller’s address',
          description:
            'The address the server sees for this request (behind `TRUST_PROXY`, from X-Forwarded-For) and ' +
            'whether the company’s list lets it in.',
          tags,
          response: { 200: ipAllowListMeSchema, ...authErrors },
        },
      },
      async (request) => ({
        address: request.ip,
        allowed: await isAllowed(ctx.ipAllowList, principalOf(request).companyId, request.ip),
      }),
    );

    app.post(
      '/ip-whitelist',
      {
        config: { access: adminAccess },
        schema: {
          summary: 'Add an address or range to the IP allow-list',
          description: `400 with a detail for an address that is not an IPv4/IPv6 address or CIDR range, or one already on the list. ${LOCKOUT}`,
          tags,
          body: ipAllowListBodySchema,
          response: { 201: ipAllowListEntrySchema, ...authErrors, 409: ipAllowListLockoutSchema },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        const id = await addEntry(ctx.db, {
          companyId,
          actorId,
          callerAddress: request.ip,
          confirmLockout: request.body.confirm_lockout === true,
          address: request.body.address,
          label: request.body.label,
        });
        afterChange(request.server, companyId);
        const entry = (await listEntries(ctx.db, companyId)).find((e) => e.id === id);
        if (!entry) throw notFound();
        return reply.code(201).send(entry);
      },
    );

    app.delete(
      '/ip-whitelist/:id',
      {
        config: { access: adminAccess },
        schema: {
          summary: 'Delete an entry of the IP allow-list',
          description: `404 for an id of another company. ${LOCKOUT} The confirmation is the query flag \`?confirm_lockout=true\` (a JSON body \`{ "confirm_lockout": true }\` is accepted too).`,
          tags,
          params: idParams,
          querystring: ipAllowListDeleteQuerySchema,
          body: ipAllowListDeleteBodySchema,
          response: { 204: z.null(), ...authErrors, 409: ipAllowListLockoutSchema },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        await removeEntry(ctx.db, {
          companyId,
          actorId,
          callerAddress: request.ip,
          confirmLockout: request.query.confirm_lockout === 'true' || request.body?.confirm_lockout === true,
          id: request.params.id,
        });
        afterChange(request.server, companyId);
        reply.code(204);
        return null;
      },
    );
  };
}
