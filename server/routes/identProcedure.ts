import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import {
  callScreenshotSchema,
  callStepBodySchema,
  callStepSchema,
  identProcedureBodySchema,
  identProcedureSchema,
  MAX_SCREENSHOT_BYTES,
  MAX_SCREENSHOTS_PER_CALL,
  MAX_STEP_OFFSET_MS,
  SCREENSHOT_DETAILS,
  SCREENSHOT_TYPES,
  screenshotQuerySchema,
} from '#contract/identProcedure';
import type { AppContext } from '../context';
import { callScreenshots, screenshotFile, storeScreenshot } from '../domain/callScreenshots';
import {
  addCallStep,
  callSteps,
  identProcedure,
  STEP_GRACE_MS,
  saveIdentProcedure,
} from '../domain/identProcedure';
import type { Seen } from '../domain/versions';
import { badRequest, HttpError } from '../errors';
import { CALL_EVIDENCE, need, principalOf, SIGNED_IN } from '../http/access';
import { conflictSchema, ifMatchHeaders, seenVersion, versioned, withEtag } from '../http/versioning';
import { recordRead } from '../plugins/accessLog';
import { uploadError } from '../storage/uploadGate';
import { authErrors } from './shared';

const screenshotParams = z.strictObject({ id: idParams.shape.id, shot: idParams.shape.id });

/** A screenshot body read whole (it is small), refused with 413 once it passes the limit. */
async function screenshotBody(_request: FastifyRequest, payload: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    size += chunk.length;
    if (size > MAX_SCREENSHOT_BYTES) throw new HttpError(413, SCREENSHOT_DETAILS.tooLarge);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** If-Match of the procedure: `"0"` names the default template (a company that never saved one). */
function seenProcedureVersion(request: FastifyRequest): Seen {
  const header = request.headers['if-match'];
  const value = (Array.isArray(header) ? header.join(',') : header)?.trim();
  if (value !== undefined && /^(?:W\/)?"?0"?$/.test(value)) return 0;
  return seenVersion(request);
}

/**
 * The identification procedure of the company and the step results of a call:
 * `server/domain/identProcedure.ts`.
 */
export function identProcedureRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ident_procedure',
      {
        // Every staff member reads it: agents follow it in the call.
        config: { access: SIGNED_IN },
        schema: {
          summary: "The company's identification procedure",
          description:
            'The ordered steps of a video identification (each mandatory or optional, with the settings of its ' +
            'kind), the consent text in both languages and the abort and decision reasons. A company that never ' +
            'saved one gets the default template after BaFin Circular 3/2017 (`is_default: true`, version 0). ' +
            'The ETag is the version, for If-Match on PUT.',
          tags: ['company'],
          response: { 200: identProcedureSchema, ...authErrors },
        },
      },
      async (request, reply) => withEtag(reply, await identProcedure(ctx.db, principalOf(request).companyId)),
    );

    app.put(
      '/ident_procedure',
      {
        config: { access: need('view_company_page', { admin: true }) },
        schema: {
          summary: "Save the company's identification procedure (Admins)",
          description:
            'Replaces the procedure. Each kind at most once, `consent` first when present, `decision` last and ' +
            'mandatory, `count` of questions at most the pool size; 400 with a detail naming the field ' +
            'otherwise, and nothing changes. Send the ETag as If-Match (`"0"` for the default template): a ' +
            'newer version answers 409 with the current procedure. Audited (`ident_procedure_changed`).',
          tags: ['company'],
          headers: ifMatchHeaders,
          body: identProcedureBodySchema,
          response: { 200: identProcedureSchema, ...authErrors, 409: conflictSchema(identProcedureSchema) },
        },
      },
      async (request, reply) => {
        const { companyId, id: userId } = principalOf(request);
        const seen = seenProcedureVersion(request);
        await versioned(
          () => saveIdentProcedure(ctx.db, { companyId, userId }, request.body, seen),
          () => identProcedure(ctx.db, companyId),
        );
        return withEtag(reply, await identProcedure(ctx.db, companyId));
      },
    );

    app.get(
      '/videocall/:id/steps',
      {
        config: { access: CALL_EVIDENCE },
        schema: {
          summary: 'Step results of a call',
          tags: ['videocalls'],
          description:
            'The results of the identification steps recorded in the call, in the order of the recording ' +
            "(`offset_ms`), for the reviewer's player. Their details hold what the customer typed (serial " +
            'numbers, codes): `view_calls_page`, like the screenshots. 404 for a call of another company.',
          params: idParams,
          response: { 200: z.array(callStepSchema), ...authErrors },
        },
      },
      async (request) => callSteps(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.post(
      '/videocall/:id/steps',
      {
        config: { access: need('view_calls_page') },
        schema: {
          summary: 'Record a step result of a call',
          tags: ['videocalls'],
          description:
            `The result of one step (passed, failed, skipped) with its details and its offset in the recording ` +
            `(0 to ${MAX_STEP_OFFSET_MS} ms). Only the call's agent (403), while the call is talking or up to ` +
            `${STEP_GRACE_MS / 60_000} minutes after it ended (409); the kind must be a step of the company's ` +
            'procedure (400). Written once, never changed. Supervisors watching the call hear it without its ' +
            'details (socket `watch.step`). 404 for a call of another company.',
          params: idParams,
          body: callStepBodySchema,
          response: { 201: callStepSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request, reply) => {
        const { companyId, id: actorId } = principalOf(request);
        const step = await addCallStep(ctx.db, companyId, request.params.id, actorId, request.body);
        app.hub.watch.stepRecorded(companyId, request.params.id, step);
        return reply.code(201).send(step);
      },
    );

    app.get(
      '/videocall/:id/screenshots',
      {
        config: { access: CALL_EVIDENCE },
        schema: {
          summary: 'Screenshots of a call',
          tags: ['videocalls'],
          description:
            'The screenshots the agent took for the steps of the call, in the order they were taken, each with ' +
            'its SHA-256; `deleted` once the retention job removed the image. 404 for a call of another company.',
          params: idParams,
          response: { 200: z.array(callScreenshotSchema), ...authErrors },
        },
      },
      async (request) => callScreenshots(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.get(
      '/videocall/:id/screenshots/:shot',
      {
        config: { access: CALL_EVIDENCE },
        schema: {
          summary: 'One screenshot of a call (the image)',
          tags: ['videocalls'],
          produces: [...SCREENSHOT_TYPES],
          description:
            'The JPEG or PNG as it was stored. 404 for a screenshot of another call or company, or one deleted ' +
            'by the retention job.',
          params: screenshotParams,
          response: { 200: z.any().describe('image/jpeg or image/png'), ...authErrors },
        },
      },
      async (request, reply) => {
        const { id, shot } = request.params;
        const row = await screenshotFile(ctx.db, principalOf(request).companyId, id, shot);
        recordRead(request, {
          kind: 'screenshot_viewed',
          target: { callId: id },
          detail: { screenshot: shot },
        });
        return reply
          .header('content-type', row.contentType)
          .header('cache-control', 'private, max-age=3600')
          .header('x-content-type-options', 'nosniff')
          .send(ctx.storage.open(row.storageKey));
      },
    );

    // The image is the body (image/jpeg or image/png): a child context with its own parser.
    await app.register(async (parent) => {
      const child = parent.withTypeProvider<ZodTypeProvider>();
      child.addContentTypeParser([...SCREENSHOT_TYPES], screenshotBody);
      child.post(
        '/videocall/:id/screenshots',
        {
          config: { access: need('view_calls_page') },
          schema: {
            summary: 'Take a screenshot for a step of a call',
            tags: ['videocalls'],
            consumes: [...SCREENSHOT_TYPES],
            description:
              "The body is a JPEG or PNG of the customer's video (`Content-Type: image/jpeg` or `image/png`; " +
              `checked by its first bytes, 400 otherwise), at most ${MAX_SCREENSHOT_BYTES / 1048576} MB (413), ` +
              `for the step \`kind\` (face_screenshot, id_front, id_back, security_features). Only the call's ` +
              `agent (403), while the call is talking (409); at most ${MAX_SCREENSHOTS_PER_CALL} per call (409); ` +
              "within the company's storage quota (413). Stored with its SHA-256; name its id in the step " +
              "result's `details.screenshots`. 404 for a call of another company; nothing is stored on any error.",
            params: idParams,
            querystring: screenshotQuerySchema,
            response: {
              201: callScreenshotSchema,
              ...authErrors,
              409: errorSchema,
              413: errorSchema,
              429: errorSchema,
            },
          },
        },
        async (request, reply) => {
          const body: unknown = request.body;
          if (!Buffer.isBuffer(body)) throw badRequest(SCREENSHOT_DETAILS.notAnImage);
          const { companyId, id: actorId } = principalOf(request);
          const leave = await ctx.uploads.enter(actorId);
          try {
            const shot = await storeScreenshot(ctx.db, ctx.storage, {
              companyId,
              callId: request.params.id,
              actorId,
              kind: request.query.kind,
              body,
              quotaBytes: ctx.config.limits.companyStorageBytes,
            });
            // The face match and MRZ read start after the answer and reach the agent as `call.check_done`.
            app.machineChecks.screenshotTaken(companyId, shot);
            return reply.code(201).send(shot);
          } catch (error) {
            throw uploadError(error, SCREENSHOT_DETAILS.tooLarge);
          } finally {
            leave();
          }
        },
      );
    });
  };
}
