import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { amlCheckSchema, amlHistoryDetailSchema, amlResultSchema } from '../../src/contract/aml';
import { idParams } from '../../src/contract/common';
import type { AppContext } from '../context';
import { getAmlCheck, getAmlHistoryEntry, getAmlResult, requireAmlProvider } from '../domain/aml';
import { assertProfile } from '../domain/profiles';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

const access = need('view_profiles_page');
const description = 'Needs an AML provider in the company config (403 otherwise).';

export function amlRoutes(ctx: AppContext): FastifyPluginAsyncZod {
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

    app.get(
      '/profile/:id/aml/check',
      {
        config: { access },
        schema: {
          tags: ['aml'],
          description,
          params: idParams,
          response: { 200: amlCheckSchema, ...authErrors },
        },
      },
      async (request) => {
        const provider = await guard(principalOf(request).companyId, request.params.id);
        return getAmlCheck(ctx.db, provider, request.params.id);
      },
    );

    app.get(
      '/profile/:id/aml/history/:checkId',
      {
        config: { access },
        schema: {
          tags: ['aml'],
          description: `One AML history entry with its records (the amlRecordDetail screen). ${description}`,
          params: z.strictObject({
            id: z.coerce.number().int().positive(),
            checkId: z.coerce.number().int().positive(),
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
