import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { callReportQuerySchema, callReportSchema, REPORT_MAX_DAYS } from '#contract/stats';
import type { AppContext } from '../context';
import { callReport } from '../domain/callReport';
import { need, principalOf } from '../http/access';
import { rateLimited, sharedLimit } from '../http/rateLimits';
import { authErrors } from './shared';

/** GET /videocall/report (docs/product/api.md): the detailed call statistics of the calls screen. */
export function callReportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const limited = sharedLimit(ctx, 'reports');
  return async (app) => {
    app.get(
      '/videocall/report',
      {
        config: { access: need('view_calls_page') },
        onRequest: limited.onRequest,
        schema: {
          summary: 'Detailed call statistics',
          tags: ['videocalls'],
          description:
            'The company’s calls created from `start_date` to `end_date` (UTC days, both included, at most ' +
            `${REPORT_MAX_DAYS} days): totals, and the same figures by day (every day of the range), by agent ` +
            '(`agent: null` for calls no agent took) and by status code (0..9). Handling time is ' +
            `\`call_end_time − call_start_time\` of the calls that have both. ${limited.text}`,
          querystring: callReportQuerySchema,
          response: { 200: callReportSchema, ...authErrors, ...rateLimited },
        },
      },
      async (request) => callReport(ctx.db, ctx.reports, principalOf(request).companyId, request.query),
    );
  };
}
