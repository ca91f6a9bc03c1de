import { eq } from 'drizzle-orm';
import { PERMISSIONS, type Permission, ROLE_PERMISSIONS, ROLES, type Role } from '#contract/common';
import type { DbOrTx } from '../db/client';
import { groups, userGroups, users } from '../db/schema';

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

/** The role's page permissions plus those of the user's groups, in the order of SPEC §6. */
export function permissionsOf(role: Role, groupPermissions: readonly string[]): Permission[] {
  const granted = new Set<string>([...ROLE_PERMISSIONS[role], ...groupPermissions]);
  return PERMISSIONS.filter((p) => granted.has(p));
}

/**
 * Loads an active user as a principal; null when missing or disabled. One query (the user and their groups'
 * permissions), run on every request: a change of role, groups or state applies to the next request in every
 * process (issue 26). `disabledAt`: when the user was last disabled (tokens without a session check it).
 */
export async function loadPrincipalState(
  db: DbOrTx,
  userId: number,
): Promise<{ principal: Principal; disabledAt: Date | null } | null> {
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
