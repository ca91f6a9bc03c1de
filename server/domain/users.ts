import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { AGENT_LANGUAGES, type AgentLanguage } from '#contract/callRouting';
import type { Role } from '#contract/common';
import { startPageOf } from '#contract/constants';
import type { User, UserListQuery } from '#contract/users';
import type { DbOrTx } from '../db/client';
import { groups, userGroups, users } from '../db/schema';
import type { Storage } from '../storage/storage';
import { likePattern } from './format';
import { permissionsOf } from './principal';

type UserRow = typeof users.$inferSelect;

async function groupsByUser(db: DbOrTx, userIds: number[]) {
  const byUser = new Map<number, { id: number; name: string; permissions: string[] }[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: userGroups.userId, id: groups.id, name: groups.name, permissions: groups.permissions })
    .from(userGroups)
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(inArray(userGroups.userId, userIds))
    .orderBy(asc(groups.id));
  for (const { userId, ...group } of rows) byUser.set(userId, [...(byUser.get(userId) ?? []), group]);
  return byUser;
}

/** The stored languages of a user that are still AGENT_LANGUAGES, in their order. */
const agentLanguages = (stored: string[]): AgentLanguage[] =>
  AGENT_LANGUAGES.filter((language) => stored.includes(language));

function toUser(
  row: UserRow,
  userGroupsList: { id: number; name: string; permissions: string[] }[],
  storage: Storage,
): User {
  const role = row.role as Role;
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    username: row.email,
    phone: row.phone,
    photo: row.photoKey ? storage.signedUrl(row.photoKey) : null,
    groups: userGroupsList.map(({ id, name }) => ({ id, name })),
    is_superuser: row.isSuperuser,
    is_staff: row.isStaff,
    mfa: row.mfaSecret !== null,
    company: row.companyId,
    permissions: permissionsOf(
      role,
      userGroupsList.flatMap((g) => g.permissions),
    ),
    role,
    is_active: row.isActive,
    last_login: row.lastLogin?.toISOString() ?? null,
    force_password_reset: row.forcePasswordReset,
    force_mfa_reset: row.forceMfaReset,
    languages: agentLanguages(row.languages),
    // The column is only ever written through startPageSchema; anything else (a hand edit) reads as the default.
    start_page: startPageOf(row.startPage),
    mail_language: row.mailLanguage === 'en' || row.mailLanguage === 'tr' ? row.mailLanguage : null,
  };
}

/** One user of the company, or null (also for another company's user). */
export async function getUser(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  userId: number,
): Promise<User | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
  if (!row) return null;
  const byUser = await groupsByUser(db, [row.id]);
  return toUser(row, byUser.get(row.id) ?? [], storage);
}

/** ORDER BY of a user list (`name`: last then first name; ties by id). */
function userOrder(ordering: UserListQuery['ordering']): SQL[] {
  const descending = ordering?.startsWith('-') ?? false;
  const dir = (column: SQL | typeof users.id) => (descending ? desc(column) : asc(column));
  switch (ordering?.replace(/^-/, '')) {
    case 'name':
      return [dir(sql`lower(${users.lastName})`), dir(sql`lower(${users.firstName})`), asc(users.id)];
    case 'username':
      return [dir(sql`lower(${users.email})`), asc(users.id)];
    case 'role':
      return [dir(sql`${users.role}`), asc(users.id)];
    case 'last_login':
      return [
        descending ? sql`${users.lastLogin} desc nulls last` : sql`${users.lastLogin} asc nulls first`,
        asc(users.id),
      ];
    case 'id':
      return [dir(users.id)];
    default:
      return [asc(users.id)];
  }
}

export async function listUsers(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  query: UserListQuery,
): Promise<{ count: number; results: User[] }> {
  const filters: SQL[] = [eq(users.companyId, companyId)];
  if (query.role) filters.push(eq(users.role, query.role));
  if (query.is_active) filters.push(eq(users.isActive, query.is_active === 'true'));
  if (query.search) {
    const pattern = likePattern(query.search);
    const match = or(
      ilike(users.email, pattern),
      ilike(users.firstName, pattern),
      ilike(users.lastName, pattern),
    );
    if (match) filters.push(match);
  }
  const where = and(...filters);
  const [total] = await db.select({ value: count() }).from(users).where(where);
  const rows = await db
    .select()
    .from(users)
    .where(where)
    .orderBy(...userOrder(query.ordering))
    .limit(query.limit)
    .offset(query.offset);
  const byUser = await groupsByUser(
    db,
    rows.map((r) => r.id),
  );
  return { count: total?.value ?? 0, results: rows.map((r) => toUser(r, byUser.get(r.id) ?? [], storage)) };
}
