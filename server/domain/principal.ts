import { eq } from 'drizzle-orm';
import { PERMISSIONS, type Permission, ROLE_PERMISSIONS, ROLES, type Role } from '#contract/common';
import type { Change, Changes } from '../db/changes';
import type { DbOrTx } from '../db/client';
import { companies, groups, userGroups, users } from '../db/schema';
import { createKeptReads } from './keptReads';

/** The authenticated caller of a request. */
export interface Principal {
  id: number;
  companyId: number;
  email: string;
  role: Role;
  permissions: Permission[];
  isApiUser: boolean;
  isSuperuser: boolean;
}

function asRole(value: string): Role {
  return (ROLES as readonly string[]).includes(value) ? (value as Role) : 'Restricted User';
}

/** The role's page permissions plus those of the user's groups, in the order of PERMISSIONS. */
export function permissionsOf(role: Role, groupPermissions: readonly string[]): Permission[] {
  const granted = new Set<string>([...ROLE_PERMISSIONS[role], ...groupPermissions]);
  return PERMISSIONS.filter((p) => granted.has(p));
}

/** A principal and when its user was last disabled (tokens without a session check it). */
export interface PrincipalState {
  principal: Principal;
  disabledAt: Date | null;
}

/**
 * Loads an active user as a principal; null when missing or disabled. One query (the user and their groups'
 * permissions): a change of role, groups or state applies to the next request in every process, read
 * by every request or kept until the database says it changed (`createPrincipalReads`).
 */
export async function loadPrincipalState(db: DbOrTx, userId: number): Promise<PrincipalState | null> {
  const rows = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      email: users.email,
      role: users.role,
      isActive: users.isActive,
      isApiUser: users.isApiUser,
      isSuperuser: users.isSuperuser,
      disabledAt: users.disabledAt,
      groupPermissions: groups.permissions,
    })
    .from(users)
    .leftJoin(userGroups, eq(userGroups.userId, users.id))
    .leftJoin(groups, eq(groups.id, userGroups.groupId))
    .where(eq(users.id, userId));
  const user = rows[0];
  if (!user?.isActive) return null;
  const role = asRole(user.role);
  return {
    principal: {
      id: user.id,
      companyId: user.companyId,
      email: user.email,
      role,
      permissions: permissionsOf(
        role,
        rows.flatMap((row) => row.groupPermissions ?? []),
      ),
      isApiUser: user.isApiUser,
      isSuperuser: user.isSuperuser,
    },
    disabledAt: user.disabledAt,
  };
}

export async function loadPrincipal(db: DbOrTx, userId: number): Promise<Principal | null> {
  return (await loadPrincipalState(db, userId))?.principal ?? null;
}

/**
 * The principals of the requests' access checks (docs/decisions/0179-principals-kept-until-they-change.md, docs/decisions/0180-postgresql-tells-what-changed.md). While the database tells at commit whose
 * principal changed (migration 0038), a principal read is kept until that user's (or everyone's) change: it is
 * keyed by the user's version taken before the read starts, so a write that commits while a read runs makes that
 * read stale for the next caller, and a change of role, groups or state applies to the next request in the process
 * that made it (on PostgreSQL, in another process once the notification arrives, a moment after the commit).
 * While not told (no change feed, or PostgreSQL's feed connection down) every request reads.
 * Never for a read inside a transaction: it would see the transaction's own writes.
 */
export interface PrincipalReads {
  read(db: DbOrTx, userId: number): Promise<PrincipalState | null>;
  /**
   * The payment status of a company (the payment gate's question on every service write), kept the same way:
   * the database tells every change of a status as a change of everyone's principal (migration 0050).
   */
  paymentStatus(db: DbOrTx, companyId: number): Promise<string | null>;
  /** Keeps principals from now on, until `stop`, forgetting them as `changes` tells. */
  follow(changes: Changes): Promise<void>;
  stop(): Promise<void>;
}

/** At most this many principals are kept (the oldest goes first). */
export const MAX_KEPT_PRINCIPALS = 10_000;

/** Frozen: one object serves every request of its user, and nothing may change it for the others. */
function frozen(state: PrincipalState | null): PrincipalState | null {
  if (!state) return null;
  Object.freeze(state.principal.permissions);
  Object.freeze(state.principal);
  return Object.freeze(state);
}

async function loadPaymentStatus(db: DbOrTx, companyId: number): Promise<string | null> {
  const [company] = await db
    .select({ paymentStatus: companies.paymentStatus })
    .from(companies)
    .where(eq(companies.id, companyId));
  return company?.paymentStatus ?? null;
}

export function createPrincipalReads(
  load: typeof loadPrincipalState = loadPrincipalState,
  maxKept = MAX_KEPT_PRINCIPALS,
): PrincipalReads {
  const kept = createKeptReads(maxKept);
  const statuses = createKeptReads(maxKept);
  let unlisten: (() => Promise<void>) | undefined;
  return {
    read: (db, userId) =>
      // Not told: every request reads (a read in flight is not shared: it may predate a change).
      kept.following()
        ? kept.read(userId, String(userId), () => load(db, userId).then(frozen))
        : load(db, userId),
    paymentStatus: (db, companyId) =>
      statuses.following()
        ? statuses.read(companyId, String(companyId), () => loadPaymentStatus(db, companyId))
        : loadPaymentStatus(db, companyId),
    async follow(changes) {
      if (unlisten) return;
      // One listener for both: each change and each blindness is told to the principals and the statuses.
      const told: [(change: Change) => void, ((isBlind: boolean) => void) | undefined][] = [];
      unlisten = await changes.listen(
        (change) => {
          for (const [changed] of told) changed(change);
        },
        (isBlind) => {
          for (const [, blind] of told) blind?.(isBlind);
        },
      );
      const both: Changes = {
        listen: async (changed, blind) => {
          told.push([changed, blind]);
          return async () => undefined;
        },
      };
      await kept.follow(both);
      await statuses.follow(both);
    },
    async stop() {
      const stop = unlisten;
      unlisten = undefined;
      await kept.stop();
      await statuses.stop();
      await stop?.();
    },
  };
}
