import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AML_NO_PERMISSION,
  amlApproveBodySchema,
  amlCheckSchema,
  amlHistoryDetailSchema,
  amlResultSchema,
} from '#contract/aml';
import { idParams, idText } from '#contract/common';
import type { AppContext } from '../context';
import { getAmlHistoryEntry, getAmlResult, requireAmlProvider } from '../domain/aml';
import { type AmlActor, approveAml, runAmlCheck } from '../domain/amlWrites';
import { assertProfile } from '../domain/profiles';
import { forbidden } from '../errors';
import { need, principalOf } from '../http/access';
import { rateLimited, sharedLimit } from '../http/rateLimits';
import { createAmlScreener, type Screener } from '../integrations/aml';
import { authErrors } from './shared';

const access = need('view_profiles_page');
const description = 'Needs an AML provider in the company config (403 otherwise).';
const writeDescription =
  `${description} Restricted User: 403 \`${AML_NO_PERMISSION}\`. ` +
  'Writes the profile activity log in the same transaction.';

/** Restricted User reads AML but may not run checks or approve ("You don't have permission to update AML"). */
async function mayUpdateAml(request: FastifyRequest): Promise<void> {
  if (principalOf(request).role === 'Restricted User') throw forbidden(AML_NO_PERMISSION);
}

const actorOf = (request: FastifyRequest): AmlActor => {
  const principal = principalOf(request);
  return { userId: principal.id, companyId: principal.companyId };
};

/**
 * AML (docs/product/api.md): the result, running a check through the screening engine (server/integrations/aml),
 * approving, and the history entries. The watchlist loads once, when the routes are registered.
 */
export function amlRoutes(ctx: AppContext, options: { screener?: Screener } = {}): FastifyPluginAsyncZod {
  const screener = options.screener ?? createAmlScreener(ctx.config.aml);
  return async (app) => {
    /** The profile must be the caller's and AML must be on; returns the provider. */
    async function guard(companyId: number, profileId: number): Promise<string> {
      await assertProfile(ctx.db, companyId, profileId);
      return requireAmlProvider(ctx.db, companyId);
    }

    app.get(
      '/profile/:id/aml',
      {
        config: { access },
        schema: {
          summary: "A profile's AML result and history",
          tags: ['aml'],
          description,
          params: idParams,
          response: { 200: amlResultSchema, ...authErrors },
        },
      },
      async (request) => {
        const provider = await guard(principalOf(request).companyId, request.params.id);
        return getAmlResult(ctx.db, provider, request.params.id);
      },
    );

    const outside = sharedLimit(ctx, 'outsideCalls');
    app.get(
      '/profile/:id/aml/check',
      {
        config: { access },
        onRequest: [mayUpdateAml, outside.onRequest],
        schema: {
          summary: 'Run a new AML screening',
          tags: ['aml'],
          description:
            'Runs a new screening of the profile (name and aliases, birth date, nationality) against the ' +
            'configured watchlist, stores it as the result (unapproved) and as a history entry, and answers ' +
            `it. Records explain which fields matched (docs/server.md). ${writeDescription} ${outside.text}`,
          params: idParams,
          response: { 200: amlCheckSchema, ...authErrors, ...rateLimited },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const provider = await guard(actor.companyId, request.params.id);
        const check = await ctx.db.transaction((tx) =>
          runAmlCheck(tx, actor, request.params.id, provider, screener),
        );
        ctx.reviewFeed.profileCases(actor.companyId, request.params.id);
        return check;
      },
    );

    app.patch(
      '/profile/:id/aml/approve',
      {
        config: { access },
        onRequest: mayUpdateAml,
        schema: {
          summary: 'Approve the AML result',
          tags: ['aml'],
          description:
            'Approves the AML result: records who approved it and when. A profile never checked: 400; an ' +
            `approved result stays as it is. Answers the result. ${writeDescription}`,
          params: idParams,
          body: amlApproveBodySchema,
          response: { 200: amlResultSchema, ...authErrors },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const provider = await guard(actor.companyId, request.params.id);
        await ctx.db.transaction((tx) => approveAml(tx, actor, request.params.id));
        return getAmlResult(ctx.db, provider, request.params.id);
      },
    );

    app.get(
      '/profile/:id/aml/history/:checkId',
      {
        config: { access },
        schema: {
          summary: 'One AML check with its records',
          tags: ['aml'],
          description: `One AML history entry with its records (the amlRecordDetail screen). ${description}`,
          params: z.strictObject({
            id: idText,
            checkId: idText,
          }),
          response: { 200: amlHistoryDetailSchema, ...authErrors },
        },
      },
      async (request) => {
        await guard(principalOf(request).companyId, request.params.id);
        return getAmlHistoryEntry(ctx.db, request.params.id, request.params.checkId);
      },
    );
  };
}
