/** Groups of a company: extra page permissions for their members (see `permissionsOf`). */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { Permission } from '#contract/common';
import type { Group } from '#contract/companies';
import type { GroupUpdateBody } from '#contract/groups';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { groups, userGroups } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { changedFields, recordAudit } from './audit';
import type { Principal } from './principal';

type Ctx = Pick<AppContext, 'db'>;
const DUPLICATE = 'A group with this name already exists';

const toGroup = (row: typeof groups.$inferSelect): Group => ({
  id: row.id,
  name: row.name,
  permissions: row.permissions as Permission[],
});

async function ensureUniqueName(tx: Tx, companyId: number, name: string, exceptId?: number) {
  const [clash] = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(
      and(
        eq(groups.companyId, companyId),
        eq(sql`lower(${groups.name})`, name.toLowerCase()),
        exceptId === undefined ? undefined : ne(groups.id, exceptId),
      ),
    )
    .limit(1);
  if (clash) throw badRequest(DUPLICATE);
}

async function lockGroup(tx: Tx, companyId: number, groupId: number) {
  const [row] = await tx
    .select()
    .from(groups)
    .where(and(eq(groups.id, groupId), eq(groups.companyId, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** Keeps the order of PERMISSIONS and drops repeats. */
const ordered = (permissions: readonly Permission[]) => [...new Set(permissions)];

export async function createGroup(
  ctx: Ctx,
  me: Principal,
  body: { name: string; permissions: Permission[] },
): Promise<Group> {
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(13002, ${me.companyId})`);
    await ensureUniqueName(tx, me.companyId, body.name);
    const [row] = await tx
      .insert(groups)
      .values({ companyId: me.companyId, name: body.name, permissions: ordered(body.permissions) })
      .returning();
    if (!row) throw new Error('group insert returned nothing');
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'group',
      objectId: row.id,
      action: 'group_created',
      after: { name: row.name, permissions: row.permissions },
    });
    return toGroup(row);
  });
}

export async function updateGroup(
  ctx: Ctx,
  me: Principal,
  groupId: number,
  body: GroupUpdateBody,
): Promise<Group> {
  const group = await ctx.db.transaction(async (tx) => {
    const row = await lockGroup(tx, me.companyId, groupId);
    if (body.name !== undefined) {
      await tx.execute(sql`select pg_advisory_xact_lock(13002, ${me.companyId})`);
      await ensureUniqueName(tx, me.companyId, body.name, groupId);
    }
    const next = {
      name: body.name ?? row.name,
      permissions: body.permissions ? ordered(body.permissions) : row.permissions,
    };
    const diff = changedFields({ name: row.name, permissions: row.permissions }, next);
    if (Object.keys(diff.after).length === 0) return toGroup(row);
    const [updated] = await tx.update(groups).set(next).where(eq(groups.id, groupId)).returning();
    if (!updated) throw notFound();
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'group',
      objectId: groupId,
      action: 'group_updated',
      ...diff,
    });
    return toGroup(updated);
  });
  return group;
}

/** The users in a group (their sockets follow a change of its permissions: RealtimeHub.refreshAccess). */
export async function groupMemberIds(db: Ctx['db'], groupId: number): Promise<number[]> {
  const rows = await db
    .select({ id: userGroups.userId })
    .from(userGroups)
    .where(eq(userGroups.groupId, groupId));
  return rows.map((r) => r.id);
}

export async function deleteGroup(ctx: Ctx, me: Principal, groupId: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const row = await lockGroup(tx, me.companyId, groupId);
    await tx.delete(groups).where(eq(groups.id, groupId));
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'group',
      objectId: groupId,
      action: 'group_deleted',
      before: { name: row.name, permissions: row.permissions },
    });
  });
}
