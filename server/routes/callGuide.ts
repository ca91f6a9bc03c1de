import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import {
  CALL_GUIDE_LIMITS,
  type CallStep,
  callCodeBodySchema,
  codeSentSchema,
  currentStepBodySchema,
  customerGuideQuerySchema,
  customerGuideSchema,
  entryReplySchema,
  serialNumberBodySchema,
} from '#contract/identProcedure';
import type { AppContext } from '../context';
import {
  CALL_CODE_TTL_MS,
  customerGuide,
  enterCallCode,
  enterSerialNumber,
  sendCallCode,
  setCurrentStep,
} from '../domain/callGuide';
import { requireCall } from '../domain/videocalls/calls';
import { callOfLink } from '../domain/videocalls/joinLinks';
import { bearerToken, CUSTOMER, customerOf, need, principalOf } from '../http/access';
import type { RealtimeHub } from '../realtime/hub';
import { customerRoom, userRoom } from '../realtime/rooms';
import { authErrors } from './shared';

type Request = Parameters<typeof customerOf>[0];

const customer = (request: Request) => {
  const claims = customerOf(request);
  return { companyId: claims.company_id, profileId: claims.profile_id };
};

/**
 * The customer's side of a guided call: the agent shows a step and sends the second-channel code;
 * the customer page reads the step, types the serial number and the code (`server/domain/callGuide.ts`).
 * The sockets hear of it: the customer `call.step` and `call.code_sent`, the agent `call.step_recorded`.
 */
export function callGuideRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const hub = (): RealtimeHub => app.hub;
    /** The customer's call only when the join link that bears the request created it (404 otherwise). */
    const linksCall = (request: Request, callId: number) =>
      callOfLink(ctx.db, customerOf(request), bearerToken(request) ?? '', callId);
    const toAgent = async (companyId: number, callId: number, step: CallStep | null) => {
      if (!step) return;
      hub().watch.stepRecorded(companyId, callId, step);
      const call = await requireCall(ctx.db, companyId, callId);
      if (call.agentId)
        hub().io.to(userRoom(call.agentId)).emit('call.step_recorded', { call_id: callId, step });
    };

    app.put(
      '/videocall/:id/current_step',
      {
        config: { access: need('view_calls_page') },
        schema: {
          summary: 'Show the customer a step',
          tags: ['videocalls'],
          description:
            'The step of the guided procedure the customer’s page shows the instruction of now (`call.step` to ' +
            'the customer’s socket). Only the call’s agent (403), while the call is talking (409); the kind must ' +
            'be a step of the company’s procedure (400). 404 for a call of another company.',
          params: idParams,
          body: currentStepBodySchema,
          response: { 204: z.null().describe('Shown'), ...authErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const { companyId, id: agentId } = principalOf(request);
        const callId = request.params.id;
        await setCurrentStep(ctx.db, companyId, callId, agentId, request.body.kind);
        hub().io.to(customerRoom(callId)).emit('call.step', { call_id: callId, kind: request.body.kind });
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/videocall/:id/code',
      {
        config: { access: need('view_calls_page') },
        schema: {
          summary: 'Send the customer the second-channel code',
          tags: ['videocalls'],
          description:
            'A new 6-digit code to the profile’s e-mail address or phone, as the procedure’s ' +
            '`second_channel_code` step says (e-mail through the mail outbox; SMS through the SMS sender, whose ' +
            `local stand-in keeps an outbox). It replaces the previous one and can be typed for ${CALL_CODE_TTL_MS / 60_000} ` +
            `minutes, \`max_tries\` times; a call sends at most ${CALL_GUIDE_LIMITS.codeSends} (409). Only the ` +
            'call’s agent (403), while it talks (409); 409 when the profile has no address for the channel.',
          params: idParams,
          response: { 200: codeSentSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const { companyId, id: agentId } = principalOf(request);
        const callId = request.params.id;
        const sent = await sendCallCode(
          ctx.db,
          { secret: ctx.config.jwtSecret, mail: ctx.mail, sms: ctx.sms },
          companyId,
          callId,
          agentId,
        );
        hub()
          .io.to(customerRoom(callId))
          .emit('call.code_sent', { call_id: callId, ...sent });
        return sent;
      },
    );

    app.get(
      '/videocall/guide',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'What the join page shows in a guided call (customer)',
          tags: ['videocalls'],
          description:
            'Called by the customer page with the join-link token as bearer, e.g. after a reload: the step the ' +
            'agent shows, the code sent (where to, tries left) and the serial-number tries left. 404 for any call ' +
            'not created with this join link (another link of the same profile, another profile).',
          querystring: customerGuideQuerySchema,
          response: { 200: customerGuideSchema, ...authErrors },
        },
      },
      async (request) => {
        await linksCall(request, request.query.call_id);
        return customerGuide(ctx.db, customer(request), request.query.call_id);
      },
    );

    app.post(
      '/videocall/serial_number',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'Type the ID’s serial number (customer)',
          tags: ['videocalls'],
          description:
            'The serial number the customer reads out and types: compared with the document numbers on file ' +
            'for the profile and recorded as the `serial_number` step’s result (passed when one matches), which ' +
            `the agent sees (\`call.step_recorded\`). ${CALL_GUIDE_LIMITS.serialTries} entries per call (409 ` +
            'after); while the call talks (409); 400 when the procedure has no such step. 404 for any call not ' +
            'created with this join link.',
          body: serialNumberBodySchema,
          response: { 200: entryReplySchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const who = customer(request);
        const { call_id: callId, serial_number: typed } = request.body;
        await linksCall(request, callId);
        const { reply, step } = await enterSerialNumber(ctx.db, who, callId, typed);
        await toAgent(who.companyId, callId, step);
        return reply;
      },
    );

    app.post(
      '/videocall/code',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'Type the second-channel code (customer)',
          tags: ['videocalls'],
          description:
            'The code the agent sent. Right: the `second_channel_code` step is recorded as passed; wrong: a ' +
            'try is counted, and the last wrong try records it as failed (`accepted: false, tries_left: 0`). ' +
            'The agent hears each result (`call.step_recorded`). 409 when no code can be typed (none sent, ' +
            'expired, used, no tries left) or the call does not talk. 404 for any call not created with this ' +
            'join link.',
          body: callCodeBodySchema,
          response: { 200: entryReplySchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const who = customer(request);
        const { call_id: callId, code } = request.body;
        await linksCall(request, callId);
        const { reply, step } = await enterCallCode(ctx.db, ctx.config.jwtSecret, who, callId, code);
        await toAgent(who.companyId, callId, step);
        return reply;
      },
    );
  };
}
