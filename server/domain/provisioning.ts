/**
 * Users an identity provider manages: created just in time at their first SSO sign-in or by SCIM, given the role
 * and groups the company's mapping derives from the provider's groups, and disabled by SCIM. Both paths write
 * through these functions, with the audit entry in the same transaction and the system as the actor.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { ROLES, type Role } from '#contract/common';
import type { SsoMapping } from '#contract/sso';
import { hashPassword, type PasswordCost } from '../auth/passwords';
import type { DbOrTx, Tx } from '../db/client';
import { groups, userGroups, users } from '../db/schema';
import { changedFields, recordAudit } from './audit';
import type { SessionService } from './sessions';

/** Higher wins when several of a user's groups map to a role. */
const RANK: Record<Role, number> = { 'Restricted User': 0, User: 1, Admin: 2 };

export const asRole = (value: string): Role =>
  (ROLES as readonly string[]).includes(value) ? (value as Role) : 'Restricted User';

/**
 * What the mapping gives a member of `memberOf` (the provider's group names or ids, compared case-insensitively):
 * the highest mapped role (else `defaultRole`), and the studio groups mapped, within the groups the mapping manages.
 */
export function mappedAccess(
  mappings: readonly SsoMapping[],
  defaultRole: Role,
  memberOf: readonly string[],
): { role: Role; groupIds: number[]; managedGroupIds: number[] } {
  const names = new Set(memberOf.map((g) => g.toLowerCase()));
  let role: Role | null = null;
  const groupIds = new Set<number>();
  for (const rule of mappings) {
    if (!names.has(rule.claim.toLowerCase())) continue;
    if (rule.role && (role === null || RANK[rule.role] > RANK[role])) role = rule.role;
    if (rule.group_id !== null) groupIds.add(rule.group_id);
  }
  const managed = [...new Set(mappings.flatMap((m) => (m.group_id === null ? [] : [m.group_id])))];
  return {
    role: role ?? defaultRole,
    groupIds: [...groupIds].sort((a, b) => a - b),
    managedGroupIds: managed,
  };
}

/** A password nobody knows: a provisioned user signs in through the provider, never with a password. */
export function unusablePassword(cost: PasswordCost): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'), cost);
}

async function groupIdsOf(tx: DbOrTx, userId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: userGroups.groupId })
    .from(userGroups)
    .where(eq(userGroups.userId, userId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** The company's groups among `ids` (a mapping may name a group deleted since). */
async function existingGroups(tx: DbOrTx, companyId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.companyId, companyId), inArray(groups.id, ids)));
  return rows.map((r) => r.id);
}

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  groupIds: number[];
  isActive?: boolean;
}

/** Creates a provider-managed user with its audit entry (`user_created`, the system as actor); its id. */
export async function createProvisionedUser(
  tx: Tx,
  companyId: number,
  user: NewUser,
  passwordHash: string,
  source: 'sso' | 'scim',
): Promise<number> {
  const [row] = await tx
    .insert(users)
    .values({
      companyId,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      passwordHash,
      role: user.role,
      isStaff: user.role === 'Admin',
      isActive: user.isActive ?? true,
    })
    .returning({ id: users.id });
  if (!row) throw new Error('user insert returned nothing');
  const groupIds = await existingGroups(tx, companyId, user.groupIds);
  if (groupIds.length > 0)
    await tx.insert(userGroups).values(groupIds.map((groupId) => ({ userId: row.id, groupId })));
  await recordAudit(tx, {
    companyId,
    actorId: null,
    object: 'user',
    objectId: row.id,
    action: 'user_created',
    after: {
      username: user.email,
      role: user.role,
      groups: groupIds,
      is_active: user.isActive ?? true,
      source,
    },
  });
  return row.id;
}

/**
 * Applies a role and the mapped groups to a user (only the groups the mapping manages are added or taken away),
 * audited as `user_updated` when anything changed.
 */
export async function applyMappedAccess(
  tx: Tx,
  companyId: number,
  userId: number,
  access: { role: Role; groupIds: number[]; managedGroupIds: number[] },
  source: 'sso' | 'scim',
): Promise<boolean> {
  const [row] = await tx
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
    .for('update');
  if (!row) return false;
  const before = await groupIdsOf(tx, userId);
  const wanted = new Set(await existingGroups(tx, companyId, access.groupIds));
  const managed = new Set(access.managedGroupIds);
  const next = [...new Set([...before.filter((id) => !managed.has(id)), ...wanted])].sort((a, b) => a - b);
  const diff = changedFields({ role: row.role, groups: before }, { role: access.role, groups: next });
  if (Object.keys(diff.after).length === 0) return false;
  if (row.role !== access.role)
    await tx
      .update(users)
      .set({ role: access.role, isStaff: access.role === 'Admin' })
      .where(eq(users.id, userId));
  if (next.join() !== before.join()) {
    await tx.delete(userGroups).where(eq(userGroups.userId, userId));
    if (next.length > 0) await tx.insert(userGroups).values(next.map((groupId) => ({ userId, groupId })));
  }
  await recordAudit(tx, {
    companyId,
    actorId: null,
    object: 'user',
    objectId: userId,
    action: 'user_updated',
    before: diff.before,
    after: { ...diff.after, source },
  });
  return true;
}

/**
 * Enables or disables a provider-managed user, audited. Disabling ends every session of the user at once, and
 * with them their sockets (an agent's call then ends as when the agent leaves); the caller runs `endSessions`
 * after its transaction commits.
 */
export async function setProvisionedActive(
  tx: Tx,
  companyId: number,
  userId: number,
  active: boolean,
  source: 'sso' | 'scim',
): Promise<boolean> {
  const [row] = await tx
    .select({ isActive: users.isActive })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
    .for('update');
  if (!row || row.isActive === active) return false;
  await tx
    .update(users)
    .set({ isActive: active, ...(active ? {} : { disabledAt: new Date() }) })
    .where(eq(users.id, userId));
  await recordAudit(tx, {
    companyId,
    actorId: null,
    object: 'user',
    objectId: userId,
    action: active ? 'user_enabled' : 'user_disabled',
    before: { is_active: !active },
    after: { is_active: active, source },
  });
  return true;
}

/** Ends every session of disabled users (their next request is 401 "disabled", their sockets close now). */
export async function endSessionsOfDisabled(
  deps: { db: DbOrTx; sessions: Pick<SessionService, 'endAllOf'> },
  userIds: number[],
): Promise<void> {
  if (userIds.length > 0) await deps.sessions.endAllOf(deps.db, userIds, null, 'disabled');
}

/** The user of the company with this e-mail address (case-insensitive), if any. */
export async function userByEmail(db: DbOrTx, companyId: number, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(sql`lower(${users.email})`, email.toLowerCase())))
    .limit(1);
  return row ?? null;
}
