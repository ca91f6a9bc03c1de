import { eq } from 'drizzle-orm';
import { PERMISSIONS, type Permission, ROLE_PERMISSIONS, ROLES, type Role } from '../../src/contract/common';
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

/** Loads an active user as a principal; null when missing or disabled. */
export async function loadPrincipal(db: DbOrTx, userId: number): Promise<Principal | null> {
  const [user] = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      email: users.email,
      role: users.role,
      isActive: users.isActive,
      isApiUser: users.isApiUser,
      isSuperuser: users.isSuperuser,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.isActive) return null;
  const groupRows = await db
    .select({ permissions: groups.permissions })
    .from(userGroups)
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(eq(userGroups.userId, userId));
  const role = asRole(user.role);
  return {
    id: user.id,
    companyId: user.companyId,
    email: user.email,
    role,
    permissions: permissionsOf(
      role,
      groupRows.flatMap((g) => g.permissions),
    ),
    isApiUser: user.isApiUser,
    isSuperuser: user.isSuperuser,
  };
}
