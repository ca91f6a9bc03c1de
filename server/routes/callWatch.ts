/**
 * Supervisors watching live calls: the grant, who watches, whispers, and the company's notice to customers
 * (`server/domain/callWatch.ts`, docs/decisions/0208-supervisors-watch-calls.md). The sockets hear of it: the
 * agent and the watchers `call.watchers` and `call.whisper`, the watchers `watch.ended`; the customer nothing.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  callWatcherSchema,
  callWatchSettingsBodySchema,
  callWatchSettingsSchema,
  watchedCallSchema,
  watchGrantSchema,
  watchNoticeSchema,
  whisperBodySchema,
  whisperSchema,
} from '#contract/callWatch';
import { errorSchema, idParams } from '#contract/common';
import { WHISPERS_TOO_FAST } from '#contract/rateLimits';
import type { AppContext } from '../context';
import {
  addWhisper,
  callWatchers,
  callWhispers,
  getCallWatchSettings,
  setCallWatchSettings,
  startWatch,
  stopWatch,
  toWatcher,
  watchedCallFacts,
  watchedCalls,
} from '../domain/callWatch';
import { requireCall } from '../domain/videocalls/calls';
import { CUSTOMER, customerOf, need, principalOf } from '../http/access';
import { limitsText, rateLimit, rateLimited } from '../http/rateLimits';
import { userRoom, watchersRoom } from '../realtime/rooms';
import { authErrors } from './shared';

const monitor = need('monitor_calls');
const calls = need('view_calls_page');
const WHO_MAY_WATCH =
  'Needs `monitor_calls` (Admins have it; others through a group), never an API user or a Restricted User ' +
  '(403); another company’s call is 404.';

export function callWatchRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const whispersLimited = rateLimit(
    ctx.limiters,
    'whispers',
    WHISPERS_TOO_FAST,
    ctx.config.rateLimits.whispers,
  );
  return async (app) => {
    app.post(
      '/videocall/:id/watch',
      {
        config: { access: monitor },
        schema: {
          summary: 'Watch a live call',
          tags: ['videocalls'],
          description:
            'Starts watching a call in progress, receive-only, or takes up the caller’s own open watch (a reload: ' +
            `200 instead of 201). ${WHO_MAY_WATCH} 409 when the call is not in progress, when the caller is its ` +
            'agent, or past four calls watched at once. The grant carries the watcher’s own STUN/TURN ' +
            'credentials for this call only, never the call’s room: the watcher then joins its watch channel ' +
            '(`watch.join`) and the agent’s browser sends it the call’s media. The agent hears who watches ' +
            '(`call.watchers`). Audited (`call_watch_started`).',
          params: idParams,
          response: { 200: watchGrantSchema, 201: watchGrantSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const callId = request.params.id;
        const started = await startWatch(ctx.db, principal, callId);
        const grant = {
          ...(await watchedCallFacts(ctx.db, started.call)),
          watch: toWatcher(started.watch),
          watchers: await callWatchers(ctx.db, callId, true),
          whispers: await callWhispers(ctx.db, principal.companyId, callId),
          ice: await ctx.callIce.forCall(principal.companyId, callId, `watcher-${principal.id}`),
        };
        if (started.created) await app.hub.watch.announce(principal.companyId, callId);
        return reply.code(started.created ? 201 : 200).send(grant);
      },
    );

    app.delete(
      '/videocall/:id/watch',
      {
        config: { access: monitor },
        schema: {
          summary: 'Stop watching a call',
          tags: ['videocalls'],
          description:
            `Ends the caller’s watch of the call (nothing to end is fine). ${WHO_MAY_WATCH} The agent hears who ` +
            'still watches. Audited (`call_watch_stopped`, reason `stopped`).',
          params: idParams,
          response: { 204: z.null().describe('Stopped'), ...authErrors },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const done = await stopWatch(ctx.db, principal, request.params.id);
        if (done.length > 0)
          await app.hub.watch.ended(principal.companyId, request.params.id, [principal.id], 'stopped');
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/videocall/watching',
      {
        config: { access: monitor },
        schema: {
          summary: 'The calls I watch',
          tags: ['videocalls'],
          description: `The caller’s open watches, oldest first: the wall of calls after a reload. ${WHO_MAY_WATCH}`,
          response: { 200: z.array(watchedCallSchema), ...authErrors },
        },
      },
      async (request) => watchedCalls(ctx.db, principalOf(request)),
    );

    app.get(
      '/videocall/:id/watchers',
      {
        config: { access: calls },
        schema: {
          summary: 'Who watched a call',
          tags: ['videocalls'],
          description:
            'Every watch of the call, oldest first: who, from when, to when (null while it goes on) and how it ' +
            'ended. The evidence package lists the same.',
          params: idParams,
          response: { 200: z.array(callWatcherSchema), ...authErrors },
        },
      },
      async (request) => {
        await requireCall(ctx.db, principalOf(request).companyId, request.params.id);
        return callWatchers(ctx.db, request.params.id);
      },
    );

    app.post(
      '/videocall/:id/whispers',
      {
        config: { access: monitor },
        onRequest: whispersLimited,
        schema: {
          summary: 'Whisper to the agent',
          tags: ['videocalls'],
          description:
            'A line of 1 to 500 characters to the call’s agent alone, from a supervisor watching the call now ' +
            `(409 otherwise, or when the call is no longer in progress). ${WHO_MAY_WATCH} Kept with the call, ` +
            'shown to reviewers, audited (`call_whisper_sent`); the customer never receives it. ' +
            limitsText(WHISPERS_TOO_FAST, ctx.config.rateLimits.whispers),
          params: idParams,
          body: whisperBodySchema,
          response: { 201: whisperSchema, ...authErrors, 409: errorSchema, ...rateLimited },
        },
      },
      async (request, reply) => {
        const principal = principalOf(request);
        const callId = request.params.id;
        const whisper = await addWhisper(ctx.db, principal, callId, request.body.text);
        const call = await requireCall(ctx.db, principal.companyId, callId);
        const rooms = [
          watchersRoom(principal.companyId, callId),
          ...(call.agentId ? [userRoom(call.agentId)] : []),
        ];
        app.hub.io.to(rooms).emit('call.whisper', whisper);
        return reply.code(201).send(whisper);
      },
    );

    app.get(
      '/videocall/:id/whispers',
      {
        config: { access: calls },
        schema: {
          summary: "A call's whispers",
          tags: ['videocalls'],
          description: 'What supervisors whispered to the call’s agent, oldest first.',
          params: idParams,
          response: { 200: z.array(whisperSchema), ...authErrors },
        },
      },
      async (request) => callWhispers(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.get(
      '/videocall/watch_notice',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'Whether the customer is told a supervisor may join',
          tags: ['videocalls'],
          description:
            'For the customer’s page (its join-link token): `customer_notice` true when the company tells its ' +
            'customers that a supervisor may join the call for quality purposes.',
          response: { 200: watchNoticeSchema, ...authErrors },
        },
      },
      async (request) => getCallWatchSettings(ctx.db, customerOf(request).company_id),
    );

    app.get(
      '/call_watch',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'Supervisors watching calls: the company’s setting',
          tags: ['videocalls'],
          description: '`customer_notice`: customers are told that a supervisor may join (default on).',
          response: { 200: callWatchSettingsSchema, ...authErrors },
        },
      },
      async (request) => getCallWatchSettings(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/call_watch',
      {
        config: { access: need('view_company_page', { admin: true }) },
        schema: {
          summary: 'Set whether customers are told a supervisor may join',
          tags: ['videocalls'],
          description: 'Admins only. Audited (`call_watch_changed`).',
          body: callWatchSettingsBodySchema,
          response: { 200: callWatchSettingsSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        return setCallWatchSettings(ctx.db, companyId, id, request.body);
      },
    );
  };
}
