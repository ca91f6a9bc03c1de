/**
 * A person's data and the duties around it: who read it (the access log), all of it in one ZIP (Art. 15), and its
 * erasure within the retention the law sets (Art. 17). Admins only, but for telling the log about a report the
 * studio drew.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import {
  accessListQuerySchema,
  accessPageSchema,
  erasureBodySchema,
  erasureSchema,
  reportExportedBodySchema,
} from '#contract/privacy';
import type { AppContext } from '../context';
import { listAccess } from '../domain/accessLog';
import { recordAudit } from '../domain/audit';
import { getErasure, requestErasure } from '../domain/erasure';
import { exportProfile } from '../domain/profileExport';
import { assertProfile } from '../domain/profiles';
import { need, principalOf } from '../http/access';
import { sendZip } from '../http/zipReply';
import { recordRead } from '../plugins/accessLog';
import { authErrors } from './shared';

const ADMIN = need('view_profiles_page', { admin: true });

export function privacyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/access_log',
      {
        config: { access: need('view_admin_page', { admin: true }) },
        schema: {
          summary: 'Reads of personal data',
          tags: ['privacy'],
          description:
            'Who read which person’s data and when, newest first: a profile opened, a document page viewed, a ' +
            'recording played or downloaded, a screenshot viewed, an evidence package or a whole profile exported, ' +
            'a report drawn. Filters: `profile`, `user`, `kind`; `before` pages back (the previous `next_before`). ' +
            'A read appears within a second or so (reads are written in batches). Admins only.',
          querystring: accessListQuerySchema,
          response: { 200: accessPageSchema, ...authErrors },
        },
      },
      async (request) => listAccess(ctx.db, principalOf(request).companyId, request.query),
    );

    app.get(
      '/profile/:id/access_log',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'Who viewed this profile',
          tags: ['privacy'],
          description:
            'The reads of one person’s data, newest first, as `GET /access_log?profile=` gives them.',
          params: idParams,
          querystring: accessListQuerySchema.omit({ profile: true }),
          response: { 200: accessPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        await assertProfile(ctx.db, companyId, request.params.id);
        return listAccess(ctx.db, companyId, { ...request.query, profile: request.params.id });
      },
    );

    app.get(
      '/profile/:id/export',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'Everything held about a person (Art. 15)',
          tags: ['privacy'],
          produces: ['application/zip'],
          description:
            'A ZIP, streamed: `profile.json`, `documents.json` (with `documents/<id>/page-<n>.<ext>`), ' +
            '`calls.json` (steps, screenshots, answers, consent; with `calls/<id>/recording.webm` and ' +
            '`calls/<id>/images/…`), `aml.json`, `notes.json`, `questionnaires.json`, `transactions.json`, ' +
            '`access_log.json`, `audit.json`, `export.json`, `index.html` (what each file holds, in the person’s ' +
            'language), `README.txt`, `public_key.pem`, `manifest.sha256` and `manifest.sha256.sig`, signed as ' +
            'an evidence package is. The JSON files hold what the API answers for the same reads, with each file ' +
            'address replaced by its path in the ZIP. Admins only; audited (`profile_exported`) and in the access ' +
            'log.',
          params: idParams,
          response: { 200: z.any().describe('application/zip'), ...authErrors },
        },
      },
      async (request, reply) => {
        const { companyId, id, email } = principalOf(request);
        const profileId = request.params.id;
        const built = await exportProfile(
          { db: ctx.db, storage: ctx.storage, signer: ctx.evidence },
          companyId,
          profileId,
          { id, email },
        );
        await recordAudit(ctx.db, {
          companyId,
          actorId: id,
          object: 'profile',
          objectId: profileId,
          action: 'profile_exported',
          after: { export_id: built.exportId, files: built.paths },
        });
        recordRead(request, {
          kind: 'profile_exported',
          target: { companyId, profileId, objectType: 'profile', objectId: profileId },
          detail: { export_id: built.exportId },
        });
        return sendZip(reply, built.stream, `profile-${profileId}-export.zip`, 'profile export failed');
      },
    );

    app.get(
      '/profile/:id/erasure',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: "A profile's erasure",
          tags: ['privacy'],
          description:
            '`none`, `scheduled` (erased but for what a retention duty keeps: each kept item with its reason and ' +
            'the day it goes) or `erased` (only an anonymised stub is left).',
          params: idParams,
          response: { 200: erasureSchema, ...authErrors },
        },
      },
      async (request) => getErasure(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.post(
      '/profile/:id/erasure',
      {
        config: { access: ADMIN },
        schema: {
          summary: 'Erase this person (Art. 17)',
          tags: ['privacy'],
          description:
            'Admins only, with a reason (10 to 500 characters). At once: contact details, address, notes, the ' +
            'review desk’s notes on the profile’s cases (the decisions stay), activity, questionnaire and checklist ' +
            'answers, transactions, device data, and the evidence whose retention has ended. Kept until the ' +
            'company’s evidence retention ends: the calls (recordings, screenshots, steps, consent, the text of ' +
            'supervisors’ whispers) and documents (pages, read fields) of that period, the AML screening records, and the ' +
            'identity fields that make them someone’s; the erasure job removes each on its day. Then only an ' +
            'anonymised stub is left (status, dates, check results: the statistics stay right) and ' +
            '`profile.erased` is sent. 409 while a legal hold stands (naming its reason; audited) or when an ' +
            'erasure was already asked for. Audited (`profile_erasure_requested`, `profile_erasure_continued`, ' +
            '`profile_erased`).',
          params: idParams,
          body: erasureBodySchema,
          response: { 200: erasureSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        return requestErasure(
          { db: ctx.db, storage: ctx.storage },
          companyId,
          request.params.id,
          id,
          request.body.reason,
        );
      },
    );

    app.post(
      '/profile/:id/access_log',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: 'Note a report drawn from the profile',
          tags: ['privacy'],
          description:
            'The studio draws the PDF and CSV reports itself; it says here that the caller took one away, so the ' +
            'access log names it (`report_exported`). The reads behind the report are logged on their own.',
          params: idParams,
          body: reportExportedBodySchema,
          response: { 204: z.null().describe('Noted'), ...authErrors },
        },
      },
      async (request, reply) => {
        const { companyId } = principalOf(request);
        await assertProfile(ctx.db, companyId, request.params.id);
        recordRead(request, {
          kind: 'report_exported',
          target: {
            companyId,
            profileId: request.params.id,
            objectType: 'profile',
            objectId: request.params.id,
          },
          detail: { format: request.body.format, report: request.body.report },
        });
        return reply.code(204).send(null);
      },
    );
  };
}
