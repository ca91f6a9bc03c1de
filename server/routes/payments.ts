import { count, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { pageSchema, pagingQuery } from '../../src/contract/common';
import { type Payment, paymentSchema } from '../../src/contract/payments';
import type { AppContext } from '../context';
import { packages, payments } from '../db/schema';
import { iso } from '../domain/format';
import { need, principalOf } from '../http/access';
import { toPage } from '../http/paging';
import { authErrors } from './shared';

export function paymentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/payment/history',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'Payment history',
          tags: ['payment'],
          description: 'Newest first.',
          querystring: z.strictObject(pagingQuery),
          response: { 200: pageSchema(paymentSchema), ...authErrors },
        },
      },
      async (request) => {
        const where = eq(payments.companyId, principalOf(request).companyId);
        const [total, rows] = await Promise.all([
          ctx.db.select({ value: count() }).from(payments).where(where),
          ctx.db
            .select({ payment: payments, packageName: packages.name })
            .from(payments)
            .leftJoin(packages, eq(packages.id, payments.packageId))
            .where(where)
            .orderBy(desc(payments.createdAt), desc(payments.id))
            .limit(request.query.limit)
            .offset(request.query.offset),
        ]);
        const results = rows.map(({ payment: p, packageName }) => ({
          id: p.id,
          package:
            p.packageId !== null && packageName !== null ? { id: p.packageId, name: packageName } : null,
          amount: p.amountCents,
          currency: p.currency,
          status: p.status as Payment['status'],
          session_id: p.sessionId,
          created_at: iso(p.createdAt),
          paid_at: iso(p.paidAt),
        }));
        return toPage(request, request.query, total[0]?.value ?? 0, results);
      },
    );
  };
}
