/**
 * The evidence of video calls: the signed package of a call, the server's public key that
 * checks it, the company's retention and a profile's legal hold. docs/evidence.md describes the package.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import {
  evidencePublicKeySchema,
  evidenceRetentionBodySchema,
  evidenceRetentionSchema,
  legalHoldBodySchema,
  legalHoldSchema,
  RETENTION_DAYS,
} from '#contract/evidence';
import { EVIDENCE_TOO_FAST } from '#contract/rateLimits';
import type { AppContext } from '../context';
import { recordAudit } from '../domain/audit';
import { callFacts, evidencePackage } from '../domain/evidencePackage';
import { getLegalHold, getRetention, setLegalHold, setRetention } from '../domain/evidenceRetention';
import { EVIDENCE_PACKAGE, need, PUBLIC, principalOf } from '../http/access';
import { limitsText, rateLimit, rateLimited } from '../http/rateLimits';
import { sendZip } from '../http/zipReply';
import { recordRead } from '../plugins/accessLog';
import { authErrors } from './shared';

export function evidenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const signer = ctx.evidence;
  // Each package reads the recording and every image, renders a PDF and signs: counted per user and company.
  const packageLimits = ctx.config.rateLimits.evidencePackages;
  const packagesLimited = rateLimit(ctx.limiters, 'evidence-packages', EVIDENCE_TOO_FAST, packageLimits);
  return async (app) => {
    app.get(
      '/evidence/public_key',
      {
        // Public by nature: whoever holds a package (an auditor, a regulator) checks it without an account.
        config: { access: PUBLIC },
        schema: {
          summary: 'The evidence signing key',
          tags: ['evidence'],
          description:
            'The Ed25519 public key whose signature every evidence package carries (`manifest.sha256.sig`), as ' +
            'PEM, with the SHA-256 of its DER bytes. Needs no token.',
          response: { 200: evidencePublicKeySchema },
        },
      },
      async () => signer.publicKey(),
    );

    app.get(
      '/videocall/:id/evidence',
      {
        config: { access: EVIDENCE_PACKAGE },
        onRequest: packagesLimited,
        schema: {
          summary: "A call's evidence package",
          tags: ['evidence'],
          produces: ['application/zip'],
          description:
            'A ZIP, streamed: `recording.webm` (when the call has one), `images/…` (pages of the documents ' +
            'uploaded during the call, and `images/step-<kind>-<n>.jpg|png`, the screenshots taken for the steps), ' +
            '`call.json` (status, reason, times, agent, customer profile, questions and answers, consent), ' +
            '`steps.json` (every step result with kind, result, details, offset in the recording, time and agent, ' +
            'and every screenshot with its path and SHA-256), `report.pdf` (with the steps and their offsets), `README.txt`, `public_key.pem`, `manifest.sha256` (every file ' +
            'above in `sha256sum` format) and `manifest.sha256.sig` (the Ed25519 signature of the manifest’s ' +
            'bytes, base64). Needs `download_evidence` (Admins; others through a group); a call of another ' +
            'company is 404. Each download is audited (`evidence_downloaded`, with the package id that call.json ' +
            `names). ${limitsText(EVIDENCE_TOO_FAST, packageLimits)}`,
          params: idParams,
          response: {
            200: z.any().describe('application/zip'),
            ...authErrors,
            ...rateLimited,
          },
        },
      },
      async (request, reply) => {
        const { companyId, id, email } = principalOf(request);
        const facts = await callFacts(ctx.db, companyId, request.params.id);
        const built = await evidencePackage({ db: ctx.db, storage: ctx.storage, signer }, facts, {
          id,
          email,
        });
        await recordAudit(ctx.db, {
          companyId,
          actorId: id,
          object: 'videocall',
          objectId: facts.call.id,
          action: 'evidence_downloaded',
          after: { package_id: built.packageId, files: built.paths },
        });
        recordRead(request, {
          kind: 'evidence_downloaded',
          target: {
            companyId,
            profileId: facts.call.profileId,
            objectType: 'videocall',
            objectId: facts.call.id,
          },
          detail: { package_id: built.packageId },
        });
        return sendZip(reply, built.stream, `call-${facts.call.id}-evidence.zip`, 'evidence package failed');
      },
    );

    app.get(
      '/evidence/retention',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: "The company's evidence retention",
          tags: ['evidence'],
          description:
            'How many days a call’s evidence (recording, screenshots) is kept after the call ends; then the ' +
            'retention job deletes it, except for profiles under a legal hold.',
          response: { 200: evidenceRetentionSchema, ...authErrors },
        },
      },
      async (request) => getRetention(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/evidence/retention',
      {
        config: { access: need('view_company_page', { admin: true }) },
        schema: {
          summary: "Set the company's evidence retention",
          tags: ['evidence'],
          description: `Admins only: ${RETENTION_DAYS.min} to ${RETENTION_DAYS.max} days (default ${RETENTION_DAYS.default}, five years). Audited.`,
          body: evidenceRetentionBodySchema,
          response: { 200: evidenceRetentionSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        return setRetention(ctx.db, companyId, id, request.body.evidence_retention_days);
      },
    );

    app.get(
      '/profile/:id/legal_hold',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: "A profile's legal hold",
          tags: ['evidence'],
          params: idParams,
          response: { 200: legalHoldSchema, ...authErrors },
        },
      },
      async (request) => getLegalHold(ctx.db, principalOf(request).companyId, request.params.id),
    );

    app.put(
      '/profile/:id/legal_hold',
      {
        config: { access: need('view_profiles_page', { admin: true }) },
        schema: {
          summary: 'Set or lift a legal hold',
          tags: ['evidence'],
          description:
            'Admins only. While a profile is on hold, the retention job keeps the evidence of its calls. A reason ' +
            'of 10 to 200 characters is required both ways; the change is audited (`legal_hold_set`, ' +
            '`legal_hold_lifted`).',
          params: idParams,
          body: legalHoldBodySchema,
          response: { 200: legalHoldSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId, id } = principalOf(request);
        return setLegalHold(ctx.db, companyId, request.params.id, id, request.body);
      },
    );
  };
}
