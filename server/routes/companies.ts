import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { companyConfigSchema, companySchema, groupSchema } from '#contract/companies';
import type { AppContext } from '../context';
import { companies } from '../db/schema';
import { listGroups, requireCompany, toCompany } from '../domain/companies';
import { notFound } from '../errors';
import { need, principalOf, SIGNED_IN } from '../http/access';
import { authErrors } from './shared';

export function companyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    /** Only the caller's own company exists for them: any other id is 404. */
    async function ownCompany(requestedId: number, companyId: number) {
      if (requestedId !== companyId) throw notFound();
      return requireCompany(ctx.db, companyId);
    }

    app.get(
      '/company',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: "The caller's companies",
          tags: ['company'],
          description: "The caller's companies: a user belongs to exactly one.",
          response: { 200: z.array(companySchema), ...authErrors },
        },
      },
      async (request) => {
        const rows = await ctx.db
          .select()
          .from(companies)
          .where(eq(companies.id, principalOf(request).companyId));
        return rows.map(toCompany);
      },
    );

    app.get(
      '/company/:id',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'One company',
          tags: ['company'],
          params: idParams,
          response: { 200: companySchema, ...authErrors },
        },
      },
      async (request) => toCompany(await ownCompany(request.params.id, principalOf(request).companyId)),
    );

    app.get(
      '/company/:id/config/app',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: "A company's configuration (AML provider, services)",
          tags: ['company'],
          params: idParams,
          response: { 200: companyConfigSchema, ...authErrors },
        },
      },
      async (request) =>
        toCompany(await ownCompany(request.params.id, principalOf(request).companyId)).config,
    );

    app.get(
      '/group',
      {
        config: { access: need('view_admin_page') },
        schema: {
          summary: 'User groups and their permissions',
          tags: ['company'],
          response: { 200: z.array(groupSchema), ...authErrors },
        },
      },
      async (request) => listGroups(ctx.db, principalOf(request).companyId),
    );
  };
}
