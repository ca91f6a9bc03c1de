/**
 * Attempt limits (OWASP ASVS 2.2.1) on `rate-limiter-flexible`: counters in Redis when REDIS_URL is set
 * (every process sees the same counts), in this process's memory otherwise. Each counter is a limiter made by
 * `createLimiters`; the policies on top of them are:
 * - `limitEach`: a plain fixed window (code sends, help-desk messages, code submits per address), and
 *   `enforceLimits` on top, which answers 429 with `Retry-After` (every rate-limited route, server/http/rateLimits.ts);
 * - `createLoginGuard`: sign-in failures per account and address with growing delays, per address, and per
 *   account from addresses that never signed in to it, so that nobody locks a user out from elsewhere;
 * - `createCodeGuard`: wrong e-mailed codes (reset, sign-up) per account and purpose.
 */
import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { HttpError } from '../errors';

/** A counter of `points` per key in windows of `durationSeconds`, named by `name` (its keys' prefix). */
export type LimiterFactory = (name: string, points: number, durationSeconds: number) => RateLimiterAbstract;

/**
 * Limiters in Redis (shared by every process; this process's memory stands in while Redis does not answer),
 * or in memory without REDIS_URL.
 */
export function createLimiters(redis: Redis | undefined): LimiterFactory {
  return (name, points, duration) => {
    const keyPrefix = `idv:limit:${name}`;
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix,
      points,
      duration,
      insuranceLimiter: memory,
    });
  };
}

/** The whole seconds until `res` allows again (at least 1). */
const secondsOf = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/**
 * Counts one point for the key; answers the seconds to wait when that is over the limit, else 0. A key made now
 * lives `durationSeconds` when given (else the limiter's duration).
 */
export async function take(
  limiter: RateLimiterAbstract,
  key: string,
  durationSeconds?: number,
): Promise<number> {
  try {
    await limiter.consume(key, 1, durationSeconds ? { customDuration: durationSeconds } : {});
    return 0;
  } catch (error) {
    if (error instanceof RateLimiterRes) return secondsOf(error);
    throw error;
  }
}

/** Several fixed windows at once: counts the key in each; the longest wait of those over their limit, else 0. */
export async function limitEach(checks: [RateLimiterAbstract, string][]): Promise<number> {
  const waits = await Promise.all(checks.map(([limiter, key]) => take(limiter, key)));
  return Math.max(0, ...waits);
}

/**
 * The one answer of a request over a limit: 429 with `detail`, and the seconds to wait both in the
 * `Retry-After` header and as `retry_after` in the body (for clients that cannot read headers).
 */
export function tooManyRequests(reply: FastifyReply, detail: string, retryAfterSeconds: number): HttpError {
  reply.header('retry-after', retryAfterSeconds);
  return new HttpError(429, detail, { retry_after: retryAfterSeconds });
}

/** Counts the request in each window (`limitEach`); throws `tooManyRequests` when one is over its limit. */
export async function enforceLimits(
  reply: FastifyReply,
  detail: string,
  checks: [RateLimiterAbstract, string][],
): Promise<void> {
  const wait = await limitEach(checks);
  if (wait > 0) throw tooManyRequests(reply, detail, wait);
}

export interface LoginLimits {
  /** Consecutive failures of one account from one address before each try waits (LOGIN_LIMIT_PER_ACCOUNT). */
  perAccount: number;
  /** Failures from one address, over every account, within `timeWindowMs` (LOGIN_LIMIT_PER_ADDRESS). */
  perAddress: number;
  timeWindowMs: number;
}

/** ASVS 2.2.1: at most 100 failures an hour on one account, from the addresses it has never signed in from. */
export const ACCOUNT_FAILURES_PER_HOUR = 100;
/** The first wait after `perAccount` failures; each further failure doubles it, up to `MAX_DELAY_SECONDS`. */
export const FIRST_DELAY_SECONDS = 15;
export const MAX_DELAY_SECONDS = 15 * 60;
/** How long an address that signed in to an account counts as that account's own. */
const KNOWN_ADDRESS_SECONDS = 14 * 86_400;

export type AttemptOutcome = 'success' | 'failure' | 'neutral';

export type Attempt =
  | { allowed: false; retryAfterSeconds: number }
  | { allowed: true; settle(outcome: AttemptOutcome): Promise<void> };

export interface LoginGuard {
  /** Before the password is checked: whether this account may be tried from this address now. */
  begin(account: string, address: string): Promise<Attempt>;
}

/**
 * Sign-in limits that slow an attacker without locking the user out:
 * - per account and address: `perAccount` failures in a row, then one try per growing delay (15 s, 30 s, 1 min
 *   … 15 min); a success clears it. Only that address waits: the user signs in from their own.
 * - per address: `perAddress` failures within the window (password spraying over many accounts).
 * - per account: past 100 failures an hour, only addresses that signed in to the account before may try it (a
 *   spray from many addresses cannot guess on; the user's own address still works).
 * An attempt counts before the password is checked (so parallel requests cannot slip through) and is given
 * back when it was not a failure; `neutral` is a right password that needs another step (a code, a region).
 */
export function createLoginGuard(limiters: LimiterFactory, limits: LoginLimits): LoginGuard {
  const windowSeconds = Math.max(1, Math.round(limits.timeWindowMs / 1000));
  const day = 86_400;
  const pairFailures = limiters('login:pair-failures', Number.MAX_SAFE_INTEGER, day);
  const pairTurn = limiters('login:pair-turn', 1, FIRST_DELAY_SECONDS);
  const addressFailures = limiters('login:address-failures', limits.perAddress, windowSeconds);
  const accountFailures = limiters('login:account-failures', Number.MAX_SAFE_INTEGER, 3600);
  const knownAddresses = limiters('login:known-address', 1, KNOWN_ADDRESS_SECONDS);
  const delayAfter = (failures: number) =>
    Math.min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** Math.max(0, failures - limits.perAccount));
  const refused = (retryAfterSeconds: number): Attempt => ({ allowed: false, retryAfterSeconds });

  return {
    async begin(account, address) {
      const pair = `${account}\n${address}`;
      // The try counts as a failure before anything is checked, and is given back unless it was one: tries still
      // in flight are counted too, so a burst of requests cannot all pass a check made before any of them failed.
      const [onPair, onAccount] = await Promise.all([
        pairFailures.penalty(pair),
        accountFailures.penalty(account),
      ]);
      const giveBack = async () => {
        await Promise.all([pairFailures.reward(pair), accountFailures.reward(account)]);
      };
      const refuse = async (retryAfterSeconds: number) => {
        await giveBack();
        return refused(retryAfterSeconds);
      };
      const failuresBefore = onPair.consumedPoints - 1;
      if (failuresBefore >= limits.perAccount) {
        // Blocked since the last failure; once that wait is over, one try at a time.
        const wait = await take(pairTurn, pair, delayAfter(failuresBefore));
        if (wait > 0) return refuse(wait);
      }
      if (onAccount.consumedPoints - 1 >= ACCOUNT_FAILURES_PER_HOUR && !(await knownAddresses.get(pair)))
        return refuse(secondsOf(onAccount));
      const addressWait = await take(addressFailures, address);
      if (addressWait > 0) return refuse(addressWait);

      return {
        allowed: true,
        async settle(outcome) {
          if (outcome === 'failure') {
            if (onPair.consumedPoints >= limits.perAccount)
              await pairTurn.block(pair, delayAfter(onPair.consumedPoints));
            return;
          }
          // The right password: this address's turn is free again; a full sign-in also clears its failures.
          await Promise.all([giveBack(), addressFailures.reward(address), pairTurn.delete(pair)]);
          if (outcome === 'success') {
            await Promise.all([
              pairFailures.delete(pair),
              knownAddresses.set(pair, 1, KNOWN_ADDRESS_SECONDS),
            ]);
          }
        },
      };
    },
  };
}

/** Wrong e-mailed codes allowed per account and purpose in an hour. */
export const WRONG_CODES_PER_HOUR = 10;

export interface CodeGuard {
  /** Before a code is checked; settle with `failure` when it was wrong. */
  begin(purpose: string, email: string): Promise<Attempt>;
}

/**
 * At most 10 wrong reset or sign-up codes an hour per address and purpose, whoever sends them (new codes do not
 * add tries). A try counts before the code is checked and is given back unless the code was wrong.
 */
export function createCodeGuard(limiters: LimiterFactory): CodeGuard {
  const wrong = limiters('code:wrong', WRONG_CODES_PER_HOUR, 3600);
  return {
    async begin(purpose, email) {
      const key = `${purpose}\n${email.trim().toLowerCase()}`;
      const wait = await take(wrong, key);
      if (wait > 0) return { allowed: false, retryAfterSeconds: wait };
      return {
        allowed: true,
        async settle(outcome) {
          if (outcome !== 'failure') await wrong.reward(key);
        },
      };
    },
  };
}
