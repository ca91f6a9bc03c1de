/**
 * Rate limits of single routes (docs/decisions/0198-rate-limits-and-evidence-roles.md): a route that does real
 * work for its caller declares its windows (`RouteLimit`, in the configuration) as an `onRequest` hook, counted in the
 * shared limiters (Redis when REDIS_URL is set), and answers 429 with `Retry-After` past any of them.
 */
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { z } from 'zod';
import { errorSchema } from '#contract/common';
import { OUTSIDE_CALLS_TOO_FAST, REPORTS_TOO_FAST } from '#contract/rateLimits';
import { enforceLimits, type LimiterFactory } from '../auth/attemptLimiter';
import type { RouteLimit, ServerConfig } from '../config';
import type { AppContext } from '../context';
import { principalOf } from './access';

/** The key a window counts under; `user` and `company` need a signed-in caller. */
function keyOf(request: FastifyRequest, per: RouteLimit['per']): string {
  switch (per) {
    case 'address':
      return request.ip;
    case 'user':
      return String(principalOf(request).id);
    case 'company':
      return String(principalOf(request).companyId);
    case 'all':
      return 'all';
  }
}

/** The limiters made so far by each factory (each app has its own), by prefix. */
const made = new WeakMap<LimiterFactory, Map<string, RateLimiterAbstract>>();

/**
 * One limiter per prefix and factory: routes sharing a name share one counter also in memory, where two limiters
 * of the same prefix would count apart.
 */
function limiterOf(limiters: LimiterFactory, prefix: string, limit: RouteLimit): RateLimiterAbstract {
  const mine = made.get(limiters) ?? new Map<string, RateLimiterAbstract>();
  made.set(limiters, mine);
  const limiter = mine.get(prefix) ?? limiters(prefix, limit.points, limit.seconds);
  mine.set(prefix, limiter);
  return limiter;
}

/**
 * An `onRequest` hook counting each request of a route in its windows, under `name` (the counters' prefix, so that
 * routes sharing a name share their counts). It runs after the access check (so a refused caller spends nothing) and before the body is read.
 */
export function rateLimit(
  limiters: LimiterFactory,
  name: string,
  detail: string,
  limits: readonly RouteLimit[],
): onRequestAsyncHookHandler {
  const windows = limits.map((limit) => ({
    per: limit.per,
    limiter: limiterOf(limiters, `route:${name}:${limit.per}:${limit.seconds}`, limit),
  }));
  return async (request, reply) => {
    await enforceLimits(
      reply,
      detail,
      windows.map(({ per, limiter }) => [limiter, keyOf(request, per)]),
    );
  };
}

/** The 429 answer of a rate-limited route, for its OpenAPI responses. */
export const rateLimited = {
  429: errorSchema
    .extend({ retry_after: z.number().int().positive() })
    .describe('Too many requests: wait the seconds of `Retry-After` (also `retry_after`)'),
};

/** A sentence for a route's description: its limits, as configured. */
export function limitsText(detail: string, limits: readonly RouteLimit[]): string {
  const windows = limits.map(
    (l) => `${l.points} per ${l.seconds} s ${l.per === 'all' ? 'overall' : `per ${l.per}`}`,
  );
  return `Rate-limited (${windows.join(', ')}): past a limit, 429 “${detail}” with \`Retry-After\`.`;
}

/** The details of the route groups that share one set of counters. */
const SHARED = {
  reports: REPORTS_TOO_FAST,
  outsideCalls: OUTSIDE_CALLS_TOO_FAST,
} as const satisfies Partial<Record<keyof ServerConfig['rateLimits'], string>>;

/**
 * The limit of a group of routes, one set of counters for all of them so that moving between them does not
 * multiply the allowance: `reports`, the statistics and exports computed over a range of days (dashboard, call
 * report, review metrics and their CSV); `outsideCalls`, the routes that call a paid or slow service for each
 * request (the summariser, an AML screening, a webhook test delivery).
 */
export function sharedLimit(ctx: Pick<AppContext, 'limiters' | 'config'>, group: keyof typeof SHARED) {
  const limits = ctx.config.rateLimits[group];
  return {
    onRequest: rateLimit(ctx.limiters, group, SHARED[group], limits),
    text: limitsText(SHARED[group], limits),
  };
}
