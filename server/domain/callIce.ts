/**
 * How the two sides of a call reach each other across networks: the STUN/TURN servers each side is given, the
 * TURN credentials minted for one side of one call, the relay-only rule (the server's default OR-ed with the
 * company's setting), and the filter that keeps every address but the TURN server's out of a relay-only call's
 * signalling.
 */
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { CallNetwork, CallNetworkBody } from '#contract/callNetwork';
import type { CallIce, IceServer } from '#contract/socket';
import type { ServerConfig } from '../config';
import type { DbOrTx } from '../db/client';
import { companies } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { recordAudit } from './audit';

export type IceConfig = ServerConfig['ice'];
/** A watcher's side is their own, so their credentials are theirs alone (docs/decisions/0208-supervisors-watch-calls.md). */
export type CallSide = 'agent' | 'customer' | `watcher-${number}`;

export const RELAY_ONLY_NEEDS_TURN =
  'Relay-only calls need a TURN server: the server has no turn: address in TURN_URLS';

export interface TurnCredentials {
  username: string;
  credential: string;
  /** Unix seconds after which the TURN server refuses them. */
  expiresAt: number;
}

/**
 * TURN credentials in the scheme of coturn's `use-auth-secret` (the "REST API for TURN" draft): the username
 * is `<expiry unix seconds>:<subject>`, the password the base64 HMAC-SHA1 of the username keyed with the shared
 * secret. The TURN server checks both without asking us, and refuses the username once its time has passed.
 */
export function turnCredentials(
  secret: string,
  subject: string,
  ttlSeconds: number,
  now = Date.now(),
): TurnCredentials {
  const expiresAt = Math.floor(now / 1000) + ttlSeconds;
  const username = `${expiresAt}:${subject}`;
  const credential = createHmac('sha1', secret).update(username).digest('base64');
  return { username, credential, expiresAt };
}

/** The username's subject: the call and the side, never a person (the TURN server logs it). */
export const turnSubject = (callId: number, side: CallSide) => `call${callId}-${side}`;

const isTurn = (url: string) => /^turns?:/i.test(url);

export const hasTurn = (config: IceConfig) => config.urls.some(isTurn);

/**
 * The servers and policy of one side of one call: STUN addresses as they are, TURN addresses with credentials
 * of their own; relay-only drops STUN (a relayed path needs none).
 */
export function iceForCall(
  config: IceConfig,
  relayOnly: boolean,
  callId: number,
  side: CallSide,
  now = Date.now(),
): CallIce {
  const stun = config.urls.filter((url) => !isTurn(url));
  const turn = config.urls.filter(isTurn);
  const iceServers: IceServer[] = [];
  if (stun.length > 0 && !relayOnly) iceServers.push({ urls: stun });
  if (turn.length > 0 && config.secret !== null) {
    const minted = turnCredentials(
      config.secret,
      turnSubject(callId, side),
      config.credentialTtlSeconds,
      now,
    );
    iceServers.push({ urls: turn, username: minted.username, credential: minted.credential });
  }
  return { iceServers, iceTransportPolicy: relayOnly ? 'relay' : 'all' };
}

const CANDIDATE_TYPE = /\styp\s+(\S+)/;
const RELATED = /\sraddr\s+\S+\s+rport\s+\d+/;

/**
 * A relay candidate as the other side may see it, or null for any other (host, server- or peer-reflexive): a
 * relay candidate's related address is its owner's own address as the TURN server saw it, so it is blanked.
 */
export function relayCandidate(candidate: string): string | null {
  if (CANDIDATE_TYPE.exec(candidate)?.[1] !== 'relay') return null;
  return candidate.replace(RELATED, ' raddr 0.0.0.0 rport 0');
}

/**
 * An SDP with only relay candidates left, and no address in its connection and RTCP lines (ICE does not use
 * them; a browser writes its default candidate's address there).
 */
export function relayOnlySdp(sdp: string): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  return sdp
    .split(/\r?\n/)
    .flatMap((line) => {
      if (line.startsWith('a=candidate:')) {
        const kept = relayCandidate(line);
        return kept === null ? [] : [kept];
      }
      if (line.startsWith('c=') || line.startsWith('a=rtcp:'))
        return [line.replace(/IN IP4 \S+/, 'IN IP4 0.0.0.0').replace(/IN IP6 \S+/, 'IN IP6 ::')];
      return [line];
    })
    .join(eol);
}

/**
 * A signal of a relay-only call as the server forwards it: a candidate that is not a relay one is dropped
 * (null), an SDP loses its other candidates and addresses; anything else passes as it is. Whatever the sender's
 * browser was told, the other side learns no address but the TURN server's.
 */
export function relayOnlySignal(data: Record<string, unknown>): Record<string, unknown> | null {
  let out = data;
  if ('candidate' in data) {
    const held = data.candidate;
    const inner =
      typeof held === 'object' && held !== null ? (held as { candidate?: unknown }).candidate : held;
    // A candidate that cannot be read is not forwarded; an empty one (the end of candidates) has no address.
    if (typeof inner !== 'string') return null;
    if (inner.trim() !== '') {
      const kept = relayCandidate(inner);
      if (kept === null) return null;
      out = { ...out, candidate: typeof held === 'string' ? kept : { ...(held as object), candidate: kept } };
    }
  }
  if (typeof data.sdp === 'string') out = { ...out, sdp: relayOnlySdp(data.sdp) };
  return out;
}

/** The company's own relay-only setting (false for an unknown company). */
async function companyRelayOnly(db: DbOrTx, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ relayOnly: companies.relayOnlyCalls })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.relayOnly ?? false;
}

export async function getCallNetwork(db: DbOrTx, config: IceConfig, companyId: number): Promise<CallNetwork> {
  const [row] = await db
    .select({ relayOnly: companies.relayOnlyCalls })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return {
    relay_only: row.relayOnly,
    relay_only_by_server: config.transportPolicy === 'relay',
    turn_configured: hasTurn(config),
  };
}

/** Sets the company's relay-only calls (refused without a TURN server to relay them), audited. */
export async function setCallNetwork(
  db: DbOrTx,
  config: IceConfig,
  companyId: number,
  actorId: number,
  body: CallNetworkBody,
): Promise<CallNetwork> {
  if (body.relay_only && !hasTurn(config)) throw badRequest(RELAY_ONLY_NEEDS_TURN);
  return db.transaction(async (tx) => {
    const before = await getCallNetwork(tx, config, companyId);
    if (before.relay_only === body.relay_only) return before;
    await tx.update(companies).set({ relayOnlyCalls: body.relay_only }).where(eq(companies.id, companyId));
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'company',
      objectId: companyId,
      action: 'call_network_changed',
      before: { relay_only: before.relay_only },
      after: { relay_only: body.relay_only },
    });
    return { ...before, relay_only: body.relay_only };
  });
}

export interface CallIceService {
  /** Whether the company's calls are relay-only now (the server's default or the company's setting). */
  relayOnly(companyId: number): Promise<boolean>;
  /** The servers, fresh credentials and policy of one side of a call. */
  forCall(companyId: number, callId: number, side: CallSide): Promise<CallIce>;
  /** The company's setting changed: read it again on the next signal. */
  forget(companyId: number): void;
}

/**
 * The ICE of calls for the socket hub. The company's setting is read at most every `cacheMs` per company (every
 * signal of a call asks it); this process's own writes forget it at once.
 */
export function createCallIce(db: DbOrTx, config: IceConfig, cacheMs = 2_000): CallIceService {
  const cache = new Map<number, { relayOnly: Promise<boolean>; until: number }>();
  async function relayOnly(companyId: number): Promise<boolean> {
    if (config.transportPolicy === 'relay') return true;
    const now = Date.now();
    const held = cache.get(companyId);
    if (held && held.until > now) return held.relayOnly;
    const read = companyRelayOnly(db, companyId);
    cache.set(companyId, { relayOnly: read, until: now + cacheMs });
    read.catch(() => cache.delete(companyId));
    return read;
  }
  return {
    relayOnly,
    async forCall(companyId, callId, side) {
      return iceForCall(config, await relayOnly(companyId), callId, side);
    },
    forget: (companyId) => cache.delete(companyId),
  };
}
