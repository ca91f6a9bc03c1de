import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import {
  CALL_CLOSED,
  CALLS_TOO_FAST,
  JOIN_LINK_USED,
  MAY_NOT_TAKE_CALLS,
  mayTakeCalls,
  RECORDING_EXISTS,
  RECORDING_TOO_LARGE,
  STORAGE_QUOTA_EXCEEDED,
} from '#contract/constants';
import { legalHoldRefusalSchema } from '#contract/evidence';
import {
  agentStatusBodySchema,
  agentStatusReplySchema,
  callAnswerBodySchema,
  callAnswerSchema,
  callConsentSchema,
  callEntrySchema,
  callNoteBodySchema,
  callQuestionSchema,
  callQuestionsQuerySchema,
  callStatusEntrySchema,
  closeCallBodySchema,
  createCallBodySchema,
  createdCallSchema,
  profileUrlBodySchema,
  profileUrlSchema,
  recordingUploadFormSchema,
  updateCallBodySchema,
  videoCallListQuerySchema,
  videoCallPageSchema,
  videoCallSchema,
} from '#contract/videocalls';
import { enforceLimits } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import { callConsent, recordConsent } from '../domain/callConsent';
import { callEntries } from '../domain/callEntries';
import { checkedOutcome } from '../domain/callOutcome';
import { loadPrincipal } from '../domain/principal';
import { assertProfile } from '../domain/profiles';
import { getUser } from '../domain/users';
import { requireCall } from '../domain/videocalls/calls';
import { addCallEntry, callQuestions } from '../domain/videocalls/entries';
import { assertLinkMayStart, joinLinkOf, openCallOfLink } from '../domain/videocalls/joinLinks';
import { createCall, setCallStatus } from '../domain/videocalls/lifecycle';
import { callStatusList, listVideoCalls, oneVideoCall } from '../domain/videocalls/lists';
import { deleteRecording, storeRecording } from '../domain/videocalls/recordings';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { bearerToken, CUSTOMER, customerOf, need, principalOf, SIGNED_IN } from '../http/access';
import { toKeysetPage } from '../http/paging';
import { uploadError } from '../storage/uploadGate';
import { notRestricted } from './profileWrites';
import { authErrors } from './shared';

const calls = need('view_calls_page');
export function videoCallRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Calls created per join link and per client address, in an hour.
  const { callsPerLinkPerHour: perLink, callsPerAddressPerHour: perAddress } = ctx.config.limits;
  const linkCalls = ctx.limiters('calls:link', perLink, 3600);
  const addressCalls = ctx.limiters('calls:address', perAddress, 3600);
  return async (app) => {
    app.get(
      '/videocall',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: 'List video calls',
          tags: ['videocalls'],
          description:
            'Newest first; `profile` limits the list to one profile (404 if it is not the company’s).',
          querystring: videoCallListQuerySchema,
          response: { 200: videoCallPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        if (request.query.profile !== undefined)
          await assertProfile(ctx.db, companyId, request.query.profile);
        const page = await listVideoCalls(
          ctx.db,
          ctx.storage,
          companyId,
          request.query,
          ctx.config.listCountCap,
        );
        return toKeysetPage(request, request.query.limit, page, page.links, page.results);
      },
    );

    app.get(
      '/videocall/status_list',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'Call status codes',
          tags: ['videocalls'],
          description: 'Call status codes 0..9 with en-US and tr labels.',
          response: { 200: z.array(callStatusEntrySchema), ...authErrors },
        },
      },
      async () => callStatusList(),
    );

    app.get(
      '/videocall/:id/questions',
      {
        config: { access: need('view_calls_page') },
        schema: {
          summary: 'Questions of a call',
          tags: ['videocalls'],
          params: idParams,
          querystring: callQuestionsQuerySchema,
          response: { 200: z.array(callQuestionSchema), ...authErrors },
        },
      },
      async (request) =>
        callQuestions(ctx.db, principalOf(request).companyId, request.params.id, request.query.lang),
    );

    app.get(
      '/videocall/:id/answers',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: 'Answers and notes of a call',
          tags: ['videocalls'],
          description:
            'The answers and notes given during the call, oldest first, each with its question in `lang` ' +
            '(null for a note about the whole call).',
          params: idParams,
          querystring: callQuestionsQuerySchema,
          response: { 200: z.array(callEntrySchema), ...authErrors },
        },
      },
      async (request) =>
        callEntries(ctx.db, principalOf(request).companyId, request.params.id, request.query.lang),
    );

    app.post(
      '/profile/url',
      {
        config: { access: calls },
        schema: {
          summary: "Create a customer's call join link",
          tags: ['videocalls'],
          description:
            'A join link for the profile’s customer (the customer page, `customer.html?token=…`); the token ' +
            'lets its holder create and join a call for this profile only, and use that call only. A link starts ' +
            'one call, and one more per `join_link_retries` of the company (`GET /call_routing`) while its calls ' +
            'ended by a technical abort; for any other call, make a new link.',
          body: profileUrlBodySchema,
          response: { 200: profileUrlSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        await assertProfile(ctx.db, companyId, request.body.profile);
        const ttl = ctx.config.calls.joinLinkTtlSeconds;
        const token = await ctx.tokens.signCustomer(
          { profile_id: request.body.profile, company_id: companyId },
          ttl,
        );
        return {
          url: `${ctx.config.publicUrl}/customer.html?token=${encodeURIComponent(token)}`,
          token,
          expires_at: new Date(Date.now() + ttl * 1000).toISOString(),
        };
      },
    );

    app.get(
      '/videocall/consent',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'The consent the join page asks (customer)',
          tags: ['videocalls'],
          description:
            'Called by the customer page with the join-link token as bearer, before the camera starts: the ' +
            'company’s consent text in English and Turkish, and whether its identification procedure has a consent ' +
            'step. The customer’s agreement is sent with POST /videocall (`consent`).',
          response: { 200: callConsentSchema, ...authErrors },
        },
      },
      async (request) => callConsent(ctx.db, customerOf(request).company_id),
    );

    app.post(
      '/videocall',
      {
        config: { access: CUSTOMER },
        schema: {
          summary: 'Start a call (customer)',
          tags: ['videocalls'],
          description:
            'Called by the customer page with the join-link token as bearer: a new call with status 0 (WAITING). ' +
            'It rings once the customer’s socket connects with `{ customer: token, call_id }` (docs/events.md). ' +
            'A join link holds one call at a time: while its call waits or talks, this answers that call (200). ' +
            'A link starts one call: after its call ended, 409 “' +
            JOIN_LINK_USED +
            '”, unless every call of the link ended by a technical abort (MISSED, BAD QUALITY, CONNECTION ERROR, ' +
            'DISCONNECTED, or hung up before its agent set a status) and the company’s `join_link_retries` ' +
            '(default 1) allow another; concurrent starts of one link are counted one after the other. ' +
            `New calls are limited per link and per client address in an hour (429 “${CALLS_TOO_FAST}”). ` +
            'With `consent`, the call stores the time, the client address, the language and the consent text the ' +
            'customer agreed to (once), and the procedure’s consent step is recorded as passed at offset 0.',
          body: createCallBodySchema,
          response: {
            200: createdCallSchema,
            201: createdCallSchema,
            ...authErrors,
            409: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (request, reply) => {
        const customer = customerOf(request);
        if (request.body.profile !== customer.profile_id) throw forbidden();
        const link = joinLinkOf(bearerToken(request) ?? '');
        const { consent } = request.body;
        const made = await ctx.db.transaction(async (tx) => {
          const open = await openCallOfLink(tx, link);
          if (open) {
            if (consent)
              await recordConsent(tx, customer.company_id, open.id, { ...consent, ip: request.ip });
            return { call: open, created: false };
          }
          await assertLinkMayStart(tx, customer.company_id, link);
          await enforceLimits(reply, CALLS_TOO_FAST, [
            [linkCalls, link],
            [addressCalls, request.ip],
          ]);
          const call = await createCall(tx, customer.company_id, customer.profile_id, link);
          if (consent) await recordConsent(tx, customer.company_id, call.id, { ...consent, ip: request.ip });
          return { call, created: true };
        });
        if (!made.created) return reply.code(200).send(made.call);
        ctx.calls.created(customer.company_id, made.call.id);
        return reply.code(201).send(made.call);
      },
    );

    app.get(
      '/videocall/:id',
      {
        config: { access: calls },
        schema: {
          summary: 'Get one call',
          tags: ['videocalls'],
          description:
            'One call of the company, as the list gives it. The studio reads its own call again after its socket ' +
            'comes back, to learn whether the call was closed (a restart, an admin) or hung up meanwhile.',
          params: idParams,
          response: { 200: videoCallSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        return oneVideoCall(ctx.db, ctx.storage, companyId, request.params.id);
      },
    );

    app.put(
      '/videocall/:id',
      {
        config: { access: calls },
        schema: {
          summary: "Set a call's status",
          tags: ['videocalls'],
          description:
            'The status the call ended with (3 COMPLETE … 9 SUSPICIOUS), set once by the call’s own agent (403 ' +
            'for anyone else; a call never answered, 409). A call that already has its final status: the same ' +
            'status again from its agent is a no-op, anything else from its agent 409 “The call is already ' +
            'closed”; only an Admin may correct it, with a `reason` (10 to 200 characters), audited with the ' +
            'status before and after. `outcome_reason` names one of the company’s decision reasons (COMPLETE) or ' +
            'abort reasons (other statuses) from its identification procedure, stored with the call (400 for an ' +
            'id not in that list). When the procedure is guided: the reason id is required (400), and COMPLETE ' +
            'needs the latest result of every mandatory step in the call passed (`POST /videocall/{id}/steps`; ' +
            'the decision step excluded), else 400 with a detail naming the missing steps in procedure order; ' +
            'a refused status changes nothing.',
          params: idParams,
          body: updateCallBodySchema,
          response: { 200: videoCallSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const { companyId, id, role } = principalOf(request);
        const done = await ctx.db.transaction((tx) =>
          setCallStatus(tx, companyId, request.params.id, { id, role }, request.body),
        );
        if (done === 'set') await ctx.calls.finished(companyId, request.params.id);
        const call = await oneVideoCall(ctx.db, ctx.storage, companyId, request.params.id);
        if (done === 'set') ctx.reviewFeed.profileCases(companyId, call.profile);
        return call;
      },
    );

    app.post(
      '/videocall/:id/close',
      {
        config: { access: need('manage_calls') },
        schema: {
          summary: 'Close a call (admin)',
          tags: ['videocalls'],
          description:
            'Closes a waiting or talking call of the company with a final status (3 COMPLETE … 9 SUSPICIOUS) and ' +
            'a reason (10 to 200 characters), for a call whose agent cannot. Needs `manage_calls` ' +
            '(Admins have it). The customer hears `call.ended`, the agent `call.closed`; the call’s room is ' +
            'emptied. Audited (`call_closed`, before and after) and logged on the profile; 409 when the call is ' +
            'no longer open. `outcome_reason` and a guided procedure: as for `PUT /videocall/{id}` (a reason id ' +
            'from the company’s lists; on a guided procedure required, and COMPLETE only with every mandatory ' +
            'step passed, else 400 and nothing changes).',
          params: idParams,
          body: closeCallBodySchema,
          response: { 200: videoCallSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        const { status, outcome_reason } = request.body;
        await requireCall(ctx.db, companyId, request.params.id);
        const outcomeReason = await checkedOutcome(
          ctx.db,
          companyId,
          request.params.id,
          status,
          outcome_reason,
        );
        const closed = await ctx.calls.closeCall(companyId, request.params.id, {
          status,
          reason: 'closed_by_admin',
          by: id,
          note: request.body.reason,
          outcomeReason,
        });
        if (!closed) throw conflict(CALL_CLOSED);
        return oneVideoCall(ctx.db, ctx.storage, companyId, request.params.id);
      },
    );

    app.patch(
      '/videocall/:id',
      {
        config: { access: calls },
        schema: {
          summary: "Upload a call's recording",
          tags: ['videocalls'],
          consumes: ['multipart/form-data'],
          multipart: recordingUploadFormSchema,
          description:
            'Multipart with one file `file`: the call’s webm recording, streamed to storage (checked by its first ' +
            `bytes), made seekable and kept with its SHA-256 (\`recording_sha256\`). Only the call's agent uploads ` +
            `it (403). A call that has a recording answers 409 “${RECORDING_EXISTS}” (a recording is never ` +
            `replaced, not even after it was deleted); a retry of an upload that never completed goes through. ` +
            `Over 300 MB: 413 “${RECORDING_TOO_LARGE}”; past the company's storage quota: 413 ` +
            `“${STORAGE_QUOTA_EXCEEDED}”; nothing is kept. Too many uploads by one user: 429.`,
          params: idParams,
          response: {
            200: videoCallSchema,
            ...authErrors,
            409: errorSchema,
            413: errorSchema,
            429: errorSchema,
          },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest('Send the recording as multipart/form-data');
        const { companyId, id: actorId } = principalOf(request);
        const leave = await ctx.uploads.enter(actorId);
        const maxBytes = ctx.config.calls.maxRecordingBytes;
        try {
          // One byte over the limit reaches the byte count (busboy stops at its own limit without an error).
          const file = await request.file({ limits: { fileSize: maxBytes + 1 } });
          if (file?.fieldname !== 'file') throw badRequest('file is required');
          await storeRecording(
            ctx.db,
            ctx.storage,
            companyId,
            request.params.id,
            actorId,
            file.file,
            maxBytes,
            ctx.config.limits.companyStorageBytes,
          );
          app.ops.recordingUploads.inc({ result: 'stored' });
        } catch (error) {
          const answer = uploadError(error, RECORDING_TOO_LARGE);
          // Refused: the client's to fix (too large, not webm, not theirs); failed: the storage or the server.
          const status = (answer as { statusCode?: number }).statusCode ?? 500;
          app.ops.recordingUploads.inc({ result: status < 500 ? 'refused' : 'failed' });
          throw answer;
        } finally {
          leave();
        }
        return oneVideoCall(ctx.db, ctx.storage, companyId, request.params.id);
      },
    );

    app.delete(
      '/videocall/:id',
      {
        config: { access: calls },
        onRequest: notRestricted,
        schema: {
          summary: "Delete a call's recording",
          tags: ['videocalls'],
          description:
            'Deletes the call’s recording (the video). The call itself, its status and answers stay for ' +
            'statistics and the audit trail; 404 when it has no recording. While the call’s profile is under a ' +
            'legal hold: 409, the detail naming the hold’s reason, nothing deleted (the refusal is audited, ' +
            '`legal_hold_refused`).',
          params: idParams,
          response: { 204: z.null().describe('Deleted'), ...authErrors, 409: legalHoldRefusalSchema },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        await deleteRecording(ctx.db, ctx.storage, companyId, request.params.id, actorId);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/videocall/:id/answers',
      {
        config: { access: calls },
        schema: {
          summary: 'Answer a call question',
          tags: ['videocalls'],
          description: 'The customer’s answer to one of the company’s call questions.',
          params: idParams,
          body: callAnswerBodySchema,
          response: { 201: callAnswerSchema, ...authErrors },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        const entry = await addCallEntry(ctx.db, companyId, request.params.id, actorId, request.body);
        return reply.code(201).send(entry);
      },
    );

    app.post(
      '/videocall/:id/notes',
      {
        config: { access: calls },
        schema: {
          summary: 'Add a call note',
          tags: ['videocalls'],
          description: 'A note of 10 to 200 characters about the call, or about one question (`question`).',
          params: idParams,
          body: callNoteBodySchema,
          response: { 201: callAnswerSchema, ...authErrors },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        const entry = await addCallEntry(ctx.db, companyId, request.params.id, actorId, {
          question: request.body.question ?? null,
          note: request.body.note,
        });
        return reply.code(201).send(entry);
      },
    );

    app.post(
      '/videocall/agent_status',
      {
        config: { access: calls },
        schema: {
          summary: "Set an agent's availability",
          tags: ['videocalls'],
          description:
            'The caller’s availability (Online, Offline, Break, Meeting, Education); broadcast as `agent.status` ' +
            'to the company. Only an Online agent is offered calls and may answer. With `user`, an Admin sets ' +
            'another agent’s availability (403 for anyone else, 404 for a user of another company). API users ' +
            `and Restricted Users can only be Offline (403 “${MAY_NOT_TAKE_CALLS}”). An agent in a call stays ` +
            'Online until it ends (409).',
          body: agentStatusBodySchema,
          response: { 200: agentStatusReplySchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const caller = principalOf(request);
        const { companyId, id, role } = caller;
        const target = request.body.user ?? id;
        let principal = caller;
        if (target !== id) {
          if (role !== 'Admin') throw forbidden();
          if (!(await getUser(ctx.db, ctx.storage, companyId, target))) throw notFound();
          const other = await loadPrincipal(ctx.db, target);
          if (!other) throw notFound();
          principal = other;
        }
        if (request.body.status !== 'Offline' && !mayTakeCalls(principal))
          throw forbidden(MAY_NOT_TAKE_CALLS);
        // The agent's state never contradicts the call's: in a call, the agent is Online.
        if (request.body.status !== 'Online' && (await ctx.calls.inCall(target)) !== undefined)
          throw conflict('The agent is in a call');
        await ctx.calls.setAgentStatus(companyId, target, request.body.status);
        return { status: request.body.status };
      },
    );
  };
}
