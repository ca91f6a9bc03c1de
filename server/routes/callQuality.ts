import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  callQualitySchema,
  MAX_QUALITY_BATCH,
  MAX_QUALITY_SAMPLES,
  QUALITY_THRESHOLDS,
  qualityBodySchema,
} from '#contract/callQuality';
import { errorSchema, idParams } from '#contract/common';
import type { AppContext } from '../context';
import {
  addAgentQuality,
  addCustomerQuality,
  companyCallQuality,
  QUALITY_GRACE_MS,
} from '../domain/callQuality';
import { CUSTOMER, customerOf, need, principalOf } from '../http/access';
import { userRoom } from '../realtime/rooms';
import { authErrors } from './shared';

const t = QUALITY_THRESHOLDS;
const sending =
  `Up to ${MAX_QUALITY_BATCH} samples at once, at most ${MAX_QUALITY_SAMPLES} per side of a call (409 beyond), ` +
  `while the call is talking or up to ${QUALITY_GRACE_MS / 1000} s after it ended (409 otherwise). ` +
  'Supervisors watching the call hear both sides’ summaries so far (socket `watch.quality`).';

/** The quality of a call as both sides received it: `server/domain/callQuality.ts`. */
export function callQualityRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/videocall/:id/quality',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: 'Quality of a call',
          tags: ['videocalls'],
          description:
            'What the agent and the customer received during the call, sampled every few seconds from WebRTC ' +
            'statistics: each side’s min / median / max of video height, frame rate, packet loss, bitrate and ' +
            `sound level, the issues found (picture: median height under ${t.minHeight} or frame rate under ` +
            `${t.minFps}; sound: never louder than ${t.minAudioLevel}; connection: median loss above ` +
            `${t.maxLossPct} % or bitrate under ${t.minKbps} kbit/s), and the samples. 404 for a call of another ` +
            'company.',
          params: idParams,
          response: { 200: callQualitySchema, ...authErrors },
        },
      },
      async (request) => companyCallQuality(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.post(
      '/videocall/:id/quality',
      {
        config: { access: need('view_calls_page') },
        schema: {
          summary: 'Send the agent’s quality samples of a call',
          tags: ['videocalls'],
          description: `Only the call’s agent (403). ${sending} 404 for a call of another company.`,
          params: idParams,
          body: qualityBodySchema,
          response: { 204: z.null().describe('Stored'), ...authErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        await addAgentQuality(ctx.db, companyId, request.params.id, actorId, request.body.samples);
        await app.hub.watch.qualityArrived(companyId, request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/videocall/:id/quality/customer',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'Send the customer’s quality samples of a call (customer)',
          tags: ['videocalls'],
          description:
            'Called by the customer page with the join-link token as bearer, for the call created with that ' +
            `token (404 for any other). ${sending} The call’s agent, and nobody else, hears the last sample and ` +
            'the summary of the customer’s samples so far (socket `call.customer_quality`).',
          params: idParams,
          body: qualityBodySchema,
          response: { 204: z.null().describe('Stored'), ...authErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
        const callId = request.params.id;
        const { agentId, live } = await addCustomerQuality(
          ctx.db,
          customerOf(request),
          token,
          callId,
          request.body.samples,
        );
        if (agentId && live)
          app.hub.io.to(userRoom(agentId)).emit('call.customer_quality', { call_id: callId, ...live });
        await app.hub.watch.qualityArrived(customerOf(request).company_id, callId);
        return reply.code(204).send(null);
      },
    );
  };
}
