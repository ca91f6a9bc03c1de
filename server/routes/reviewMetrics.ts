/** Metrics of the reviewers' desk: `server/domain/review/metrics.ts`, contract `contract/reviewMetrics.ts`. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { csvLine } from '#contract/csv';
import {
  METRICS_CSV_COLUMNS,
  METRICS_DEFAULT_DAYS,
  METRICS_MAX_DAYS,
  type ReviewMetrics,
  type ReviewMetricsQuery,
  reviewMetricsQuery,
  reviewMetricsSchema,
} from '#contract/reviewMetrics';
import { addDays, dayOf } from '#contract/statsRange';
import type { AppContext } from '../context';
import { reviewMetrics } from '../domain/review/metrics';
import { need, principalOf } from '../http/access';
import { rateLimited, sharedLimit } from '../http/rateLimits';
import { authErrors } from './shared';

const tags = ['review'];
const RANGE_TEXT =
  '`from` and `to` are UTC days (YYYY-MM-DD, both included; default: the last ' +
  `${METRICS_DEFAULT_DAYS} days up to today; at most ${METRICS_MAX_DAYS} days; \`from\` after \`to\` is 400).`;
const METRICS_TEXT =
  'Per reviewer: decisions (final decisions, decisions sent to a second review, escalations), decisions per hour ' +
  'over the hours with at least one decision, seconds from assignment to decision (median and p90), SLA breaches ' +
  '(their cases decided after the due time, plus those overdue now), four-eyes returns of their decisions and the ' +
  'second reviews they did. Per queue: open and overdue now, decided in the range, SLA breaches, median seconds ' +
  'from opening to decision. Needs `review_profiles`.';

/** The range asked for, with its defaults. */
function rangeOf(query: ReviewMetricsQuery) {
  const to = query.to ?? dayOf(new Date());
  return { from: query.from ?? addDays(to, -(METRICS_DEFAULT_DAYS - 1)), to };
}

/** The metrics as CSV: one header line (METRICS_CSV_COLUMNS), then a line per reviewer and per queue. */
export function metricsCsv(metrics: ReviewMetrics): string {
  const lines = [
    csvLine([...METRICS_CSV_COLUMNS]),
    ...metrics.reviewers.map((r) =>
      csvLine([
        'reviewer',
        r.user,
        r.name,
        r.decisions,
        r.decisions_per_hour,
        r.median_seconds,
        r.p90_seconds,
        r.sla_breaches,
        r.four_eyes_returns,
        r.second_reviews,
        null,
        null,
      ]),
    ),
    ...metrics.queues.map((q) =>
      csvLine([
        'queue',
        q.queue,
        q.name,
        q.decided,
        null,
        q.median_seconds,
        null,
        q.sla_breaches,
        null,
        null,
        q.open,
        q.overdue,
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

export function reviewMetricsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const review = need('review_profiles');
  const limited = sharedLimit(ctx, 'reports');
  return async (app) => {
    app.get(
      '/review/metrics',
      {
        config: { access: review },
        onRequest: limited.onRequest,
        schema: {
          summary: "Metrics of the reviewers' desk",
          tags,
          description: `${RANGE_TEXT} ${METRICS_TEXT} Times in seconds; null where there is nothing to measure. ${limited.text}`,
          querystring: reviewMetricsQuery,
          response: { 200: reviewMetricsSchema, ...authErrors, ...rateLimited },
        },
      },
      async (request) => reviewMetrics(ctx.db, principalOf(request).companyId, rangeOf(request.query)),
    );

    app.get(
      '/review/metrics.csv',
      {
        config: { access: review },
        onRequest: limited.onRequest,
        schema: {
          summary: "Metrics of the reviewers' desk as CSV",
          tags,
          produces: ['text/csv'],
          description:
            `The figures of \`GET /review/metrics\` as CSV (RFC 4180, UTF-8, CRLF), same filters. ${RANGE_TEXT} ` +
            `Header: ${METRICS_CSV_COLUMNS.join(',')}; one line per reviewer (section \`reviewer\`) and per queue ` +
            '(section `queue`: `decisions` = decided, `median_seconds` from opening to decision). Text starting ' +
            `with =, +, -, @ is prefixed with an apostrophe, so a spreadsheet does not run it. ${limited.text}`,
          querystring: reviewMetricsQuery,
          response: { 200: z.string().describe('text/csv'), ...authErrors, ...rateLimited },
        },
      },
      async (request, reply) => {
        const range = rangeOf(request.query);
        const metrics = await reviewMetrics(ctx.db, principalOf(request).companyId, range);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="review-metrics-${range.from}-${range.to}.csv"`,
          )
          .header('cache-control', 'no-store')
          .send(metricsCsv(metrics));
      },
    );
  };
}
