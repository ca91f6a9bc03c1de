import { asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ipWhitelistEntrySchema } from '../../src/contract/ipWhitelist';
import type { AppContext } from '../context';
import { ipAllowlist } from '../db/schema';
import { iso } from '../domain/format';
import { need, principalOf } from '../http/access';
import { authErrors } from './shared';

export function ipWhitelistRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/ip-whitelist',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'The IP allow-list',
          tags: ['company'],
          response: { 200: z.array(ipWhitelistEntrySchema), ...authErrors },
        },
      },
      async (request) => {
        const rows = await ctx.db
          .select()
          .from(ipAllowlist)
          .where(eq(ipAllowlist.companyId, principalOf(request).companyId))
          .orderBy(asc(ipAllowlist.id));
        return rows.map((r) => ({ id: r.id, address: r.address, created_at: iso(r.createdAt) }));
      },
    );
  };
}
