/**
 * The IP allow-list: each company's list of addresses and CIDR ranges its staff may use.
 * Enforced on every authenticated request (`enforceIpAllowList` from `authenticate`), on staff socket
 * connections and at sign-in; an empty list lets every address in. Parsing and matching live in the
 * shared, pure `contract/ipRanges.ts`; this module adds the cache, the write paths with their
 * lock-out guard and audit lines, and the client address behind a trusted proxy.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { and, asc, eq } from 'drizzle-orm';
import type { IpAllowListEntry } from '#contract/ipAllowList';
import {
  allowedBy,
  type IpRange,
  parseClientAddress,
  parseRange,
  rangeContains,
  rangeKey,
  rangeProblemText,
} from '#contract/ipRanges';
import type { Db, DbOrTx } from '../db/client';
import { companies, ipAllowlist, users } from '../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../errors';
import { recordAudit } from './audit';
import { iso } from './format';

export const AUDIT_OBJECT = 'ip_allowlist';

/** The 403 of an address outside a company's list. */
export const notAllowedDetail = (address: string) =>
  `Address ${address} is not on this company's IP allow-list`;

/** The 409 of the lock-out guard. */
export const lockoutDetail = (address: string) =>
  `This change would lock you out: your address ${address} would not be on this company's IP allow-list. ` +
  'Send confirm_lockout: true to make it anyway';

/** The ranges of stored entries (an entry that no longer parses is skipped: it matches nothing). */
export function rangesOf(addresses: readonly string[]): IpRange[] {
  const ranges: IpRange[] = [];
  for (const address of addresses) {
    const parsed = parseRange(address);
    if (parsed.ok) ranges.push(parsed.range);
  }
  return ranges;
}

/**
 * Each company's ranges, kept for `ttlMs` so a request costs no query; this process's writes call `forget`.
 * Other processes (later) see a change within `ttlMs`, so it stays short.
 */
export interface IpAllowListCache {
  ranges(companyId: number): Promise<IpRange[]>;
  forget(companyId: number): void;
}

export function createIpAllowListCache(db: DbOrTx, ttlMs: number, maxEntries = 10_000): IpAllowListCache {
  const entries = new Map<number, { at: number; value: Promise<IpRange[]> }>();
  return {
    ranges(companyId) {
      const now = Date.now();
      const hit = entries.get(companyId);
      if (hit && now - hit.at < ttlMs) return hit.value;
      if (entries.size >= maxEntries) entries.clear();
      const value = db
        .select({ address: ipAllowlist.address })
        .from(ipAllowlist)
        .where(eq(ipAllowlist.companyId, companyId))
        .then((rows) => rangesOf(rows.map((r) => r.address)));
      entries.set(companyId, { at: now, value });
      value.catch(() => entries.delete(companyId));
      return value;
    },
    forget(companyId) {
      entries.delete(companyId);
    },
  };
}

/** Whether `address` may act for the company. */
export async function isAllowed(
  cache: IpAllowListCache,
  companyId: number,
  address: string,
): Promise<boolean> {
  return allowedBy(await cache.ranges(companyId), address);
}

/** Throws 403 naming the address when it is outside the company's non-empty list. */
export async function enforceIpAllowList(
  deps: { ipAllowList: IpAllowListCache },
  companyId: number,
  address: string,
): Promise<void> {
  if (!(await isAllowed(deps.ipAllowList, companyId, address))) throw forbidden(notAllowedDetail(address));
}

// ------------------------------------------------------------------------------------------ proxies

/** Whether a hop may be trusted to report the client's address (fastify's `trustProxy` function). */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * The `TRUST_PROXY` setting: comma-separated addresses or CIDR ranges of the proxies in front of the server.
 * Unset or empty: no proxy is trusted and `X-Forwarded-For` is ignored.
 */
export function readTrustProxy(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const parts = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const part of parts) {
    const parsed = parseRange(part);
    if (!parsed.ok) throw new Error(`TRUST_PROXY: ${rangeProblemText(part, parsed.problem)}`);
  }
  return parts;
}

/** The trust function of the configured proxies, or false (trust none). */
export function proxyTrust(proxies: readonly string[]): ProxyTrust | false {
  if (proxies.length === 0) return false;
  const ranges = rangesOf(proxies);
  return (address) => ranges.some((range) => rangeContains(range, address));
}

/**
 * The client's address of a connection (socket.io's handshake), as fastify's `request.ip` computes it: the
 * connection's address, and while that hop is a trusted proxy, the next address of `X-Forwarded-For` from the
 * right.
 */
export function clientAddressOf(
  remoteAddress: string,
  headers: IncomingHttpHeaders,
  trust: ProxyTrust | false,
): string {
  if (!trust) return remoteAddress;
  const header = headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .reverse();
  let address = remoteAddress;
  for (let hop = 0; hop < forwarded.length; hop++) {
    if (!trust(address, hop)) break;
    const next = forwarded[hop] as string;
    if (!parseClientAddress(next)) break;
    address = next;
  }
  return address;
}

/** What a socket.io handshake tells about the connection. */
interface Handshake {
  address: string;
  headers: IncomingHttpHeaders;
}

/** Whether a staff socket of the company may connect from where its handshake came. */
export async function socketAllowed(
  deps: { ipAllowList: IpAllowListCache; trust: ProxyTrust | false },
  companyId: number,
  handshake: Handshake,
): Promise<{ allowed: boolean; address: string }> {
  const address = clientAddressOf(handshake.address, handshake.headers, deps.trust);
  return { allowed: await isAllowed(deps.ipAllowList, companyId, address), address };
}

/**
 * After a change of the list, disconnects the company's open staff sockets whose address it no longer allows
 * (their next connection is refused like any other).
 */
export async function dropSocketsOutside(
  io: {
    in(room: string): {
      fetchSockets(): Promise<{ handshake: Handshake; disconnect(close?: boolean): void }[]>;
    };
  },
  room: string,
  deps: { ipAllowList: IpAllowListCache; trust: ProxyTrust | false },
  companyId: number,
): Promise<number> {
  const sockets = await io.in(room).fetchSockets();
  let dropped = 0;
  for (const socket of sockets) {
    if ((await socketAllowed(deps, companyId, socket.handshake)).allowed) continue;
    socket.disconnect(true);
    dropped += 1;
  }
  return dropped;
}

// ------------------------------------------------------------------------------------------ reads and writes

type Row = typeof ipAllowlist.$inferSelect;

export async function listEntries(db: DbOrTx, companyId: number): Promise<IpAllowListEntry[]> {
  const rows = await db
    .select({
      entry: ipAllowlist,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(ipAllowlist)
    .leftJoin(users, eq(users.id, ipAllowlist.createdBy))
    .where(eq(ipAllowlist.companyId, companyId))
    .orderBy(asc(ipAllowlist.id));
  return rows.map(({ entry, firstName, lastName, email }) => ({
    id: entry.id,
    address: entry.address,
    label: entry.label,
    created_by: entry.createdBy,
    created_by_name: `${firstName ?? ''} ${lastName ?? ''}`.trim() || email || null,
    created_at: iso(entry.createdAt),
  }));
}

/** Serialises the writes to one company's list (the lock-out guard reads what it changes). */
async function lockList(tx: DbOrTx, companyId: number): Promise<Row[]> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
  return tx
    .select()
    .from(ipAllowlist)
    .where(eq(ipAllowlist.companyId, companyId))
    .orderBy(asc(ipAllowlist.id));
}

function guardLockout(after: readonly string[], caller: string, confirm: boolean): void {
  if (confirm || after.length === 0) return;
  if (!allowedBy(rangesOf(after), caller)) {
    throw new HttpError(409, lockoutDetail(caller), { address: caller });
  }
}

export interface AllowListWrite {
  companyId: number;
  /** The staff user making the change (null: the operator's command line). */
  actorId: number | null;
  /** The caller's own address (the lock-out guard). */
  callerAddress: string;
  confirmLockout: boolean;
}

/** Adds an entry: 400 for a bad or duplicate address, 409 when it would lock the caller out. */
export async function addEntry(
  db: Db,
  write: AllowListWrite & { address: string; label?: string | null | undefined },
): Promise<number> {
  const parsed = parseRange(write.address);
  if (!parsed.ok) throw badRequest(rangeProblemText(write.address, parsed.problem));
  const range = parsed.range;
  const label = write.label?.trim() ? write.label.trim() : null;
  return db.transaction(async (tx) => {
    const current = await lockList(tx, write.companyId);
    const key = rangeKey(range);
    const same = current.find((row) => {
      const other = parseRange(row.address);
      return other.ok && rangeKey(other.range) === key;
    });
    if (same) throw badRequest(`${range.text} is already on the IP allow-list`);
    guardLockout([...current.map((r) => r.address), range.text], write.callerAddress, write.confirmLockout);
    const [row] = await tx
      .insert(ipAllowlist)
      .values({ companyId: write.companyId, address: range.text, label, createdBy: write.actorId })
      .returning({ id: ipAllowlist.id });
    const id = (row as { id: number }).id;
    await recordAudit(tx, {
      companyId: write.companyId,
      actorId: write.actorId,
      object: AUDIT_OBJECT,
      objectId: id,
      action: 'ip_allowlist_entry_added',
      after: { address: range.text, label, ...(write.confirmLockout ? { confirm_lockout: true } : {}) },
    });
    return id;
  });
}

/** Deletes an entry of the company: 404 for another company's id, 409 when it would lock the caller out. */
export async function removeEntry(db: Db, write: AllowListWrite & { id: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await lockList(tx, write.companyId);
    const target = current.find((row) => row.id === write.id);
    if (!target) throw notFound();
    guardLockout(
      current.filter((row) => row.id !== write.id).map((r) => r.address),
      write.callerAddress,
      write.confirmLockout,
    );
    await tx
      .delete(ipAllowlist)
      .where(and(eq(ipAllowlist.id, write.id), eq(ipAllowlist.companyId, write.companyId)));
    await recordAudit(tx, {
      companyId: write.companyId,
      actorId: write.actorId,
      object: AUDIT_OBJECT,
      objectId: write.id,
      action: 'ip_allowlist_entry_deleted',
      before: { address: target.address, label: target.label },
      ...(write.confirmLockout ? { after: { confirm_lockout: true } } : {}),
    });
  });
}

/** Empties a company's list (the operator's command line): one audit line with what was there. */
export async function clearEntries(db: Db, companyId: number): Promise<number> {
  return db.transaction(async (tx) => {
    const current = await lockList(tx, companyId);
    if (current.length === 0) return 0;
    await tx.delete(ipAllowlist).where(eq(ipAllowlist.companyId, companyId));
    await recordAudit(tx, {
      companyId,
      actorId: null,
      object: AUDIT_OBJECT,
      objectId: companyId,
      action: 'ip_allowlist_cleared',
      before: { addresses: current.map((r) => r.address) },
      after: { by: 'operator command line' },
    });
    return current.length;
  });
}
