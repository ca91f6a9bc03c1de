import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditPageSchema } from '#contract/audit';
import type { AppContext } from '../context';
import { listAudit } from '../domain/audit';
import { need, principalOf } from '../http/access';
import { toKeysetPage } from '../http/paging';
import { authErrors } from './shared';

/** The audit log: admins of the company read it; nobody writes it over HTTP. */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/audit',
      {
        config: { access: need('view_admin_page', { admin: true }) },
        schema: {
          tags: ['audit'],
          summary: 'Page through the audit log',
          description:
            'Every staff write of the company, newest first: who, when, from which address, the object, the ' +
            'action and the before/after of the changed fields (never secrets). Filters: `user`, ' +
            '`object_type`, `object_id`, `action`, `start_date` / `end_date` (UTC days, both included).',
          querystring: auditListQuerySchema,
          response: { 200: auditPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        const page = await listAudit(ctx.db, companyId, request.query, ctx.config.listCountCap);
        return toKeysetPage(request, request.query.limit, page, page.links, page.results);
      },
    );
  };
}
