import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { transactionSchema } from '#contract/transactions';
import type { AppContext } from '../context';
import { assertProfile } from '../domain/profiles';
import { listTransactions } from '../domain/transactions';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

/** The Transactions tab's data (docs/product/api.md does not fix its shape). */
export function transactionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/profile/:id/transactions',
      {
        config: { access: need('view_profiles_page') },
        schema: {
          summary: "A profile's transactions",
          tags: ['profiles'],
          description: 'Newest first, at most 200. 403 when the company has no `transactions` service.',
          params: idParams,
          response: { 200: z.array(transactionSchema), ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        await assertProfile(ctx.db, companyId, request.params.id);
        return listTransactions(ctx.db, companyId, request.params.id);
      },
    );
  };
}
