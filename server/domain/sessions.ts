import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt, inArray, isNull, lt, ne, or } from 'drizzle-orm';
import type { SessionEndReason } from '#contract/sessionEnd';
import type { SessionInfo } from '#contract/sessions';
import { DAY_MS } from '#contract/time';
import type { AccessClaims, TokenService } from '../auth/tokens';
import type { DbOrTx } from '../db/client';
import { sessions } from '../db/schema';

/** Last-seen writes: at most one per session in this interval. */
export const LAST_SEEN_WRITE_MS = 60_000;
/** Ended or expired sessions are deleted this long after (on the owner's next sign-in). */
const KEEP_ENDED_MS = 7 * DAY_MS;

export interface SessionStart {
  userId: number;
  companyId: number;
  email: string;
  isApiUser: boolean;
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Server-side sessions: every access token carries the id of one (`jti`). A session is active
 * until it expires with its token or is ended: logout, Logout All, ended from /settings, or a password
 * change or reset. Checks are cached per session for `cacheMs` (like the principal cache); ending a session
 * in this process forgets it at once, another instance sees it within `cacheMs`.
 */
export interface SessionService {
  /** Records a new session and signs its access token. */
  start(db: DbOrTx, input: SessionStart): Promise<{ access: string; sessionId: string }>;
  /** True when the session exists, belongs to the user and is active; notes "last seen" (throttled). */
  check(db: DbOrTx, claims: Pick<AccessClaims, 'session_id' | 'user_id'>, ip?: string): Promise<boolean>;
  /** The user's active sessions, newest activity first. */
  list(db: DbOrTx, userId: number, currentId: string | null): Promise<SessionInfo[]>;
  /** Ends one of the user's active sessions; false when there is none with that id. */
  end(db: DbOrTx, userId: number, sessionId: string, reason?: SessionEndReason): Promise<boolean>;
  /**
   * Ends every active session of the users, except `keep` (the caller's own), for `reason` (default: signed
   * out). Returns how many ended.
   */
  endAllOf(db: DbOrTx, userIds: number[], keep?: string | null, reason?: SessionEndReason): Promise<number>;
  /** Why the user's session is not active (ended or expired), or null when it is active or unknown. */
  endReason(
    db: DbOrTx,
    claims: Pick<AccessClaims, 'session_id' | 'user_id'>,
  ): Promise<SessionEndReason | null>;
  /** Called with the ids of sessions that just ended (the hub disconnects their sockets). */
  onEnded(listener: (sessionIds: string[]) => void): void;
}

interface Cached {
  userId: number;
  active: boolean;
  expiresAt: number;
  checkedAt: number;
  lastSeenWritten: number;
}

export function createSessionService(options: {
  tokens: TokenService;
  accessTtlSeconds: number;
  cacheMs: number;
  onError?: (error: unknown) => void;
  maxEntries?: number;
}): SessionService {
  const cache = new Map<string, Cached>();
  const listeners = new Set<(ids: string[]) => void>();
  const maxEntries = options.maxEntries ?? 10_000;

  function forget(ids: string[]) {
    for (const id of ids) cache.delete(id);
    if (ids.length === 0) return;
    for (const listener of listeners) listener(ids);
  }

  async function load(db: DbOrTx, id: string): Promise<Cached | null> {
    const [row] = await db
      .select({
        userId: sessions.userId,
        endedAt: sessions.endedAt,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
      })
      .from(sessions)
      .where(eq(sessions.id, id));
    if (!row) return null;
    return {
      userId: row.userId,
      active: row.endedAt === null,
      expiresAt: row.expiresAt.getTime(),
      checkedAt: Date.now(),
      lastSeenWritten: row.lastSeenAt.getTime(),
    };
  }

  return {
    async start(db, input) {
      const sessionId = randomUUID();
      const now = Date.now();
      await db
        .delete(sessions)
        .where(
          and(
            eq(sessions.userId, input.userId),
            or(
              lt(sessions.expiresAt, new Date(now - KEEP_ENDED_MS)),
              lt(sessions.endedAt, new Date(now - KEEP_ENDED_MS)),
            ),
          ),
        );
      await db.insert(sessions).values({
        id: sessionId,
        userId: input.userId,
        companyId: input.companyId,
        userAgent: (input.userAgent ?? '').slice(0, 500),
        ip: input.ip ?? null,
        lastIp: input.ip ?? null,
        expiresAt: new Date(now + options.accessTtlSeconds * 1000),
      });
      const access = await options.tokens.signAccess({
        user_id: input.userId,
        company_id: input.companyId,
        email: input.email,
        is_api_user: input.isApiUser,
        session_id: sessionId,
      });
      return { access, sessionId };
    },

    async check(db, claims, ip) {
      const now = Date.now();
      let entry = cache.get(claims.session_id);
      if (!entry || now - entry.checkedAt >= options.cacheMs) {
        const loaded = await load(db, claims.session_id);
        if (!loaded) return false;
        if (cache.size >= maxEntries) cache.clear();
        // Keep the last write time known in this process (the row may lag behind by the throttle).
        if (entry) loaded.lastSeenWritten = Math.max(loaded.lastSeenWritten, entry.lastSeenWritten);
        entry = loaded;
        cache.set(claims.session_id, entry);
      }
      if (!entry.active || entry.userId !== claims.user_id || entry.expiresAt <= now) return false;
      if (now - entry.lastSeenWritten >= LAST_SEEN_WRITE_MS) {
        entry.lastSeenWritten = now;
        db.update(sessions)
          .set({ lastSeenAt: new Date(now), ...(ip ? { lastIp: ip } : {}) })
          .where(eq(sessions.id, claims.session_id))
          .then(
            () => undefined,
            (error: unknown) => options.onError?.(error),
          );
      }
      return true;
    },

    async list(db, userId, currentId) {
      const rows = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, new Date())))
        .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
      return rows.map((row) => {
        // This process may know a later "last seen" than the throttled row.
        const known = cache.get(row.id)?.lastSeenWritten ?? 0;
        const lastSeen = Math.max(row.lastSeenAt.getTime(), known);
        return {
          id: row.id,
          user_agent: row.userAgent,
          ip: row.lastIp ?? row.ip,
          created_at: row.createdAt.toISOString(),
          last_seen_at: new Date(lastSeen).toISOString(),
          current: row.id === currentId,
        };
      });
    },

    async end(db, userId, sessionId, reason = 'signed_out') {
      const ended = await db
        .update(sessions)
        .set({ endedAt: new Date(), endReason: reason })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.endedAt)))
        .returning({ id: sessions.id });
      forget(ended.map((r) => r.id));
      return ended.length > 0;
    },

    async endAllOf(db, userIds, keep, reason = 'signed_out') {
      if (userIds.length === 0) return 0;
      const ended = await db
        .update(sessions)
        .set({ endedAt: new Date(), endReason: reason })
        .where(
          and(
            inArray(sessions.userId, userIds),
            isNull(sessions.endedAt),
            keep ? ne(sessions.id, keep) : undefined,
          ),
        )
        .returning({ id: sessions.id });
      forget(ended.map((r) => r.id));
      return ended.length;
    },

    async endReason(db, claims) {
      const [row] = await db
        .select({
          userId: sessions.userId,
          endedAt: sessions.endedAt,
          endReason: sessions.endReason,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .where(eq(sessions.id, claims.session_id));
      if (!row || row.userId !== claims.user_id) return null;
      if (row.endedAt) return (row.endReason as SessionEndReason | null) ?? 'signed_out';
      return row.expiresAt.getTime() <= Date.now() ? 'expired' : null;
    },

    onEnded(listener) {
      listeners.add(listener);
    },
  };
}
