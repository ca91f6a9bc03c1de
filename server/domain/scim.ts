/**
 * SCIM 2.0 provisioning (RFC 7643 and 7644) of a company's users and groups by its identity provider, as Entra ID
 * and Okta send it: list with `filter` (`eq`, joined by `and`), `startIndex` and `count`; GET, POST, PUT, PATCH and
 * DELETE. `userName` is the user's e-mail; a Group is a studio group. Deactivating a user disables them and ends
 * their sessions and sockets at once; DELETE does the same and takes the user out of SCIM, keeping the disabled
 * user for the audit trail. Break-glass accounts are not the provider's to change.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { Role } from '#contract/common';
import type { SsoMapping } from '#contract/sso';
import type { AppContext } from '../context';
import type { Db, DbOrTx, Tx } from '../db/client';
import { groups, scimGroups, scimUsers, ssoConnections, userGroups, users } from '../db/schema';
import { recordAudit } from './audit';
import {
  applyMappedAccess,
  asRole,
  createProvisionedUser,
  endSessionsOfDisabled,
  mappedAccess,
  setProvisionedActive,
  unusablePassword,
  userByEmail,
} from './provisioning';

type Ctx = Pick<AppContext, 'db' | 'sessions' | 'config'>;

export const SCIM_USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
/** The most resources one list page holds. */
export const SCIM_MAX_COUNT = 200;

/** A SCIM error (RFC 7644 §3.12): its status, `scimType` and detail. */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

const notFound = () => new ScimError(404, 'Resource not found');
const invalid = (detail: string) => new ScimError(400, detail, 'invalidValue');

// --- Filters ------------------------------------------------------------------------------------------------

export interface EqFilter {
  attribute: string;
  value: string;
}

/** `attr eq "value"` clauses joined by `and` (what Entra ID and Okta send); anything else is `invalidFilter`. */
export function parseFilter(filter: string | undefined, attributes: readonly string[]): EqFilter[] {
  if (filter === undefined || filter.trim() === '') return [];
  const clauses = filter.split(/\s+and\s+/i);
  return clauses.map((clause) => {
    const match = /^\s*([A-Za-z][\w.]*)\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i.exec(clause);
    const attribute = match?.[1] ?? '';
    const known = attributes.find((a) => a.toLowerCase() === attribute.toLowerCase());
    if (!match || !known)
      throw new ScimError(400, `Unsupported filter: ${filter.slice(0, 200)}`, 'invalidFilter');
    return { attribute: known, value: (match[2] ?? '').replace(/\\(.)/g, '$1') };
  });
}

function pageOf(startIndex: unknown, count: unknown): { offset: number; limit: number; start: number } {
  const start = Math.max(1, Number.parseInt(String(startIndex ?? '1'), 10) || 1);
  const parsed = Number.parseInt(String(count ?? SCIM_MAX_COUNT), 10);
  const limit = Math.min(SCIM_MAX_COUNT, Math.max(0, Number.isNaN(parsed) ? SCIM_MAX_COUNT : parsed));
  return { offset: start - 1, limit, start };
}

interface ListQuery {
  filter?: string;
  startIndex?: unknown;
  count?: unknown;
}

/**
 * A list's ListResponse (RFC 7644 §3.4.2): the total `matched` selects, and the page `startIndex` and `count`
 * ask for in the order of `order`, each row as its resource. A `count` of 0 asks for the total alone.
 */
async function listOf<Q extends PgSelect>(
  db: DbOrTx,
  matched: Q,
  order: AnyPgColumn,
  query: ListQuery,
  resource: (row: Awaited<Q>[number]) => Promise<unknown>,
) {
  const page = pageOf(query.startIndex, query.count);
  const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(sql`${matched} matched`);
  const rows: Awaited<Q> | [] =
    page.limit === 0 ? [] : await matched.orderBy(asc(order)).offset(page.offset).limit(page.limit);
  const resources = await Promise.all(rows.map(resource));
  return {
    schemas: [SCIM_LIST],
    totalResults: counted?.n ?? 0,
    startIndex: page.start,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/** `id eq "…"`: a malformed id matches nothing rather than failing the query. */
const idIs = (column: AnyPgColumn, value: string) =>
  /^\d{1,9}$/.test(value) ? eq(column, Number(value)) : sql`false`;

// --- Users --------------------------------------------------------------------------------------------------

type UserRow = typeof users.$inferSelect;

async function connectionOf(db: DbOrTx, companyId: number) {
  const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.companyId, companyId));
  return row ?? null;
}

async function userResource(db: DbOrTx, base: string, row: UserRow, externalId: string | null) {
  const memberOf = await db
    .select({ id: groups.id, name: groups.name })
    .from(userGroups)
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(eq(userGroups.userId, row.id))
    .orderBy(asc(groups.id));
  const formatted = `${row.firstName} ${row.lastName}`.trim();
  return {
    schemas: [SCIM_USER],
    id: String(row.id),
    ...(externalId ? { externalId } : {}),
    userName: row.email,
    name: { givenName: row.firstName, familyName: row.lastName, formatted },
    displayName: formatted || row.email,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: row.isActive,
    groups: memberOf.map((g) => ({ value: String(g.id), display: g.name, $ref: `${base}/Groups/${g.id}` })),
    meta: {
      resourceType: 'User',
      created: row.createdAt.toISOString(),
      location: `${base}/Users/${row.id}`,
    },
  };
}

/** Staff users SCIM sees: not API users, not deleted by SCIM. */
function visibleUsers(companyId: number) {
  return and(
    eq(users.companyId, companyId),
    eq(users.isApiUser, false),
    sql`not exists (select 1 from ${scimUsers} where ${scimUsers.userId} = ${users.id} and ${scimUsers.deletedAt} is not null)`,
  );
}

/** Users with the provider's `externalId` of those it provisioned. */
const linkedUsers = (db: DbOrTx) =>
  db
    .select({ user: users, externalId: scimUsers.externalId })
    .from(users)
    .leftJoin(scimUsers, eq(scimUsers.userId, users.id));

const USER_FILTERS = ['userName', 'externalId', 'id', 'emails.value', 'displayName'] as const;

export async function listUsers(db: DbOrTx, base: string, companyId: number, query: ListQuery) {
  const filters = parseFilter(query.filter, USER_FILTERS);
  const matched = linkedUsers(db)
    .where(
      and(
        visibleUsers(companyId),
        ...filters.map(({ attribute, value }) => {
          switch (attribute) {
            case 'userName':
            case 'emails.value':
              return eq(sql`lower(${users.email})`, value.toLowerCase());
            case 'id':
              return idIs(users.id, value);
            case 'displayName':
              return eq(sql`trim(${users.firstName} || ' ' || ${users.lastName})`, value);
            default:
              return eq(scimUsers.externalId, value);
          }
        }),
      ),
    )
    .$dynamic();
  return listOf(db, matched, users.id, query, (r) => userResource(db, base, r.user, r.externalId));
}

async function findUser(db: DbOrTx, companyId: number, id: string) {
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  const [row] = await linkedUsers(db).where(and(visibleUsers(companyId), eq(users.id, Number(id))));
  if (!row) throw notFound();
  return row;
}

export async function getScimUser(db: DbOrTx, base: string, companyId: number, id: string) {
  const row = await findUser(db, companyId, id);
  return userResource(db, base, row.user, row.externalId);
}

/** What a User body says (POST and PUT): Okta's and Entra ID's shapes. */
interface UserInput {
  userName?: string;
  externalId?: string | null;
  givenName?: string;
  familyName?: string;
  active?: boolean;
}

const text = (value: unknown, max = 254): string | undefined =>
  typeof value === 'string' ? value.trim().slice(0, max) : undefined;

/** Entra ID sends booleans as "True"/"False" in PATCH. */
function bool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return undefined;
}

function primaryEmail(emails: unknown): string | undefined {
  if (!Array.isArray(emails)) return undefined;
  const list = emails as { value?: unknown; primary?: unknown }[];
  return text((list.find((e) => e.primary === true) ?? list[0])?.value);
}

function userInput(body: Record<string, unknown>): UserInput {
  const name = (body.name ?? {}) as Record<string, unknown>;
  return {
    userName: text(body.userName) ?? primaryEmail(body.emails),
    externalId: body.externalId === undefined ? undefined : (text(body.externalId, 500) ?? null),
    givenName: text(name.givenName, 150),
    familyName: text(name.familyName, 150),
    active: body.active === undefined ? undefined : bool(body.active),
  };
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

function checkUserName(userName: string | undefined): string {
  if (!userName || userName.length < 6 || !EMAIL.test(userName))
    throw invalid('userName must be the user’s e-mail address');
  return userName;
}

/** The role the company's mapping gives the user's current groups (by their names). */
async function roleFromGroups(tx: DbOrTx, companyId: number, userId: number): Promise<Role> {
  const conn = await connectionOf(tx, companyId);
  const names = await tx
    .select({ name: groups.name })
    .from(userGroups)
    .innerJoin(groups, eq(groups.id, userGroups.groupId))
    .where(eq(userGroups.userId, userId));
  return mappedAccess(
    (conn?.mappings ?? []) as SsoMapping[],
    asRole(conn?.defaultRole ?? 'Restricted User'),
    names.map((n) => n.name),
  ).role;
}

async function breakGlass(db: DbOrTx, companyId: number): Promise<Set<number>> {
  return new Set((await connectionOf(db, companyId))?.breakGlassUserIds ?? []);
}

/** The provider may not disable nor delete a break-glass account: it is the way in when the provider fails. */
async function refuseBreakGlass(db: DbOrTx, companyId: number, userId: number) {
  if ((await breakGlass(db, companyId)).has(userId))
    throw invalid('A break-glass account is managed in the studio, not by the identity provider');
}

async function linkUser(tx: Tx, companyId: number, userId: number, externalId: string | null | undefined) {
  await tx
    .insert(scimUsers)
    .values({ userId, companyId, externalId: externalId ?? null })
    .onConflictDoUpdate({
      target: scimUsers.userId,
      set: { ...(externalId !== undefined ? { externalId } : {}), deletedAt: null },
    });
}

export async function createScimUser(
  ctx: Ctx,
  base: string,
  companyId: number,
  body: Record<string, unknown>,
) {
  const input = userInput(body);
  const email = checkUserName(input.userName);
  const passwordHash = await unusablePassword(ctx.config.argon2);
  const id = await ctx.db.transaction(async (tx) => {
    if (await userByEmail(tx, companyId, email))
      throw new ScimError(409, 'A user with this userName exists', 'uniqueness');
    const conn = await connectionOf(tx, companyId);
    const userId = await createProvisionedUser(
      tx,
      companyId,
      {
        email,
        firstName: input.givenName ?? '',
        lastName: input.familyName ?? '',
        role: asRole(conn?.defaultRole ?? 'Restricted User'),
        groupIds: [],
        isActive: input.active ?? true,
      },
      passwordHash,
      'scim',
    );
    await linkUser(tx, companyId, userId, input.externalId);
    return userId;
  });
  return getScimUser(ctx.db, base, companyId, String(id));
}

/** Applies a user's new values (PUT, or PATCH's result) and ends their sessions when they were deactivated. */
async function writeUser(ctx: Ctx, companyId: number, userId: number, next: UserInput) {
  if (next.active === false) await refuseBreakGlass(ctx.db, companyId, userId);
  const deactivated = await ctx.db.transaction(async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!row) throw notFound();
    const email = next.userName === undefined ? undefined : checkUserName(next.userName);
    if (email && email.toLowerCase() !== row.email.toLowerCase()) {
      const clash = await userByEmail(tx, companyId, email);
      if (clash && clash.id !== userId)
        throw new ScimError(409, 'A user with this userName exists', 'uniqueness');
    }
    const changes = {
      email,
      firstName: next.givenName,
      lastName: next.familyName,
    };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const changed = Object.entries(defined).filter(([k, v]) => row[k as keyof UserRow] !== v);
    if (changed.length > 0) {
      await tx.update(users).set(defined).where(eq(users.id, userId));
      await recordAudit(tx, {
        companyId,
        actorId: null,
        object: 'user',
        objectId: userId,
        action: 'user_updated',
        before: Object.fromEntries(changed.map(([k]) => [k, row[k as keyof UserRow]])),
        after: { ...Object.fromEntries(changed), source: 'scim' },
      });
    }
    if (next.externalId !== undefined) await linkUser(tx, companyId, userId, next.externalId);
    else await linkUser(tx, companyId, userId, undefined);
    if (next.active === undefined) return false;
    const flipped = await setProvisionedActive(tx, companyId, userId, next.active, 'scim');
    return flipped && !next.active;
  });
  if (deactivated) await endSessionsOfDisabled(ctx, [userId]);
}

export async function replaceScimUser(
  ctx: Ctx,
  base: string,
  companyId: number,
  id: string,
  body: Record<string, unknown>,
) {
  const { user } = await findUser(ctx.db, companyId, id);
  const input = userInput(body);
  await writeUser(ctx, companyId, user.id, { ...input, active: input.active ?? true });
  return getScimUser(ctx.db, base, companyId, id);
}

interface PatchOperation {
  op?: unknown;
  path?: unknown;
  value?: unknown;
}

function operationsOf(body: Record<string, unknown>): PatchOperation[] {
  const operations = body.Operations;
  if (!Array.isArray(operations) || operations.length === 0 || operations.length > 100)
    throw invalid('A PatchOp needs 1 to 100 Operations');
  return operations as PatchOperation[];
}

const opName = (op: unknown) => (typeof op === 'string' ? op.toLowerCase() : '');

/** A User PATCH (RFC 7644 §3.5.2): `replace`/`add` of attributes by path or as a value object. */
export async function patchScimUser(
  ctx: Ctx,
  base: string,
  companyId: number,
  id: string,
  body: Record<string, unknown>,
) {
  const { user } = await findUser(ctx.db, companyId, id);
  const next: UserInput = {};
  const set = (path: string, value: unknown) => {
    const key = path.toLowerCase();
    if (key === 'active') next.active = bool(value);
    else if (key === 'username') next.userName = text(value);
    else if (key === 'externalid') next.externalId = text(value, 500) ?? null;
    else if (key === 'name.givenname') next.givenName = text(value, 150);
    else if (key === 'name.familyname') next.familyName = text(value, 150);
    else if (key === 'name' && value && typeof value === 'object') {
      const name = value as Record<string, unknown>;
      if (name.givenName !== undefined) next.givenName = text(name.givenName, 150);
      if (name.familyName !== undefined) next.familyName = text(name.familyName, 150);
    } else if (key.startsWith('emails')) {
      next.userName = Array.isArray(value) ? primaryEmail(value) : text(value);
    }
    // displayName, title, locale and other attributes the studio does not keep are accepted and ignored.
  };
  for (const operation of operationsOf(body)) {
    const op = opName(operation.op);
    if (op === 'remove') continue;
    if (op !== 'replace' && op !== 'add')
      throw invalid(`Unsupported op: ${String(operation.op).slice(0, 20)}`);
    if (typeof operation.path === 'string') set(operation.path, operation.value);
    else if (operation.value && typeof operation.value === 'object')
      for (const [key, value] of Object.entries(operation.value as Record<string, unknown>)) set(key, value);
  }
  if (body.Operations && Object.hasOwn(next, 'active') && next.active === undefined)
    throw invalid('active must be a boolean');
  await writeUser(ctx, companyId, user.id, next);
  return getScimUser(ctx.db, base, companyId, id);
}

/** DELETE: the user is disabled (sessions and sockets end now) and leaves SCIM; the row stays for the audit trail. */
export async function deleteScimUser(ctx: Ctx, companyId: number, id: string) {
  const { user } = await findUser(ctx.db, companyId, id);
  await refuseBreakGlass(ctx.db, companyId, user.id);
  await ctx.db.transaction(async (tx) => {
    await setProvisionedActive(tx, companyId, user.id, false, 'scim');
    await linkUser(tx, companyId, user.id, undefined);
    await tx.update(scimUsers).set({ deletedAt: new Date() }).where(eq(scimUsers.userId, user.id));
  });
  await endSessionsOfDisabled(ctx, [user.id]);
}

// --- Groups -------------------------------------------------------------------------------------------------

type GroupRow = typeof groups.$inferSelect;

async function groupResource(
  db: DbOrTx,
  base: string,
  row: GroupRow,
  externalId: string | null,
  withMembers = true,
) {
  const members = withMembers
    ? await db
        .select({ id: users.id, email: users.email })
        .from(userGroups)
        .innerJoin(users, eq(users.id, userGroups.userId))
        .where(eq(userGroups.groupId, row.id))
        .orderBy(asc(users.id))
    : [];
  return {
    schemas: [SCIM_GROUP],
    id: String(row.id),
    ...(externalId ? { externalId } : {}),
    displayName: row.name,
    ...(withMembers
      ? {
          members: members.map((m) => ({
            value: String(m.id),
            display: m.email,
            $ref: `${base}/Users/${m.id}`,
          })),
        }
      : {}),
    meta: { resourceType: 'Group', location: `${base}/Groups/${row.id}` },
  };
}

/** Groups with the provider's `externalId` of those it provisioned. */
const linkedGroups = (db: DbOrTx) =>
  db
    .select({ group: groups, externalId: scimGroups.externalId })
    .from(groups)
    .leftJoin(scimGroups, eq(scimGroups.groupId, groups.id));

const GROUP_FILTERS = ['displayName', 'externalId', 'id'] as const;

export async function listGroups(
  db: DbOrTx,
  base: string,
  companyId: number,
  query: ListQuery & { excludedAttributes?: string },
) {
  const filters = parseFilter(query.filter, GROUP_FILTERS);
  const matched = linkedGroups(db)
    .where(
      and(
        eq(groups.companyId, companyId),
        ...filters.map(({ attribute, value }) =>
          attribute === 'displayName'
            ? eq(sql`lower(${groups.name})`, value.toLowerCase())
            : attribute === 'id'
              ? idIs(groups.id, value)
              : eq(scimGroups.externalId, value),
        ),
      ),
    )
    .$dynamic();
  const withMembers = !/\bmembers\b/i.test(query.excludedAttributes ?? '');
  return listOf(db, matched, groups.id, query, (r) =>
    groupResource(db, base, r.group, r.externalId, withMembers),
  );
}

async function findGroup(db: DbOrTx, companyId: number, id: string) {
  if (!/^\d{1,9}$/.test(id)) throw notFound();
  const [row] = await linkedGroups(db).where(and(eq(groups.companyId, companyId), eq(groups.id, Number(id))));
  if (!row) throw notFound();
  return row;
}

export async function getScimGroup(db: DbOrTx, base: string, companyId: number, id: string) {
  const row = await findGroup(db, companyId, id);
  return groupResource(db, base, row.group, row.externalId);
}

/** Member ids of a `members` value: `[{ value }]`; ids of other companies' or unknown users are refused. */
async function memberIds(db: DbOrTx, companyId: number, value: unknown): Promise<number[]> {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const ids = list.map((m) => String((m as { value?: unknown }).value ?? ''));
  if (ids.some((v) => !/^\d{1,9}$/.test(v))) throw invalid('Unknown member');
  const unique = [...new Set(ids.map(Number))];
  if (unique.length === 0) return [];
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, unique)));
  if (found.length !== unique.length) throw invalid('Unknown member');
  return unique;
}

/**
 * Sets who is in a group, audited, and gives each member whose groups changed the role the company's mapping
 * gives their groups' names (break-glass accounts keep theirs).
 */
async function setMembers(tx: Tx, companyId: number, groupId: number, add: number[], remove: number[]) {
  const touched = new Set<number>();
  if (remove.length > 0) {
    const gone = await tx
      .delete(userGroups)
      .where(and(eq(userGroups.groupId, groupId), inArray(userGroups.userId, remove)))
      .returning({ userId: userGroups.userId });
    for (const g of gone) touched.add(g.userId);
  }
  if (add.length > 0) {
    const added = await tx
      .insert(userGroups)
      .values(add.map((userId) => ({ userId, groupId })))
      .onConflictDoNothing()
      .returning({ userId: userGroups.userId });
    for (const a of added) touched.add(a.userId);
  }
  const keep = await breakGlass(tx, companyId);
  for (const userId of touched) {
    if (keep.has(userId)) continue;
    const current = await tx
      .select({ id: userGroups.groupId })
      .from(userGroups)
      .where(eq(userGroups.userId, userId));
    await applyMappedAccess(
      tx,
      companyId,
      userId,
      {
        role: await roleFromGroups(tx, companyId, userId),
        groupIds: current.map((c) => c.id),
        managedGroupIds: [],
      },
      'scim',
    );
  }
  if (touched.size > 0)
    await recordAudit(tx, {
      companyId,
      actorId: null,
      object: 'group',
      objectId: groupId,
      action: 'group_updated',
      after: { members_added: add, members_removed: remove, source: 'scim' },
    });
}

const membersOf = async (tx: DbOrTx, groupId: number) =>
  (await tx.select({ id: userGroups.userId }).from(userGroups).where(eq(userGroups.groupId, groupId))).map(
    (r) => r.id,
  );

/** Makes `wanted` (distinct ids) the group's members: PUT's `members`, and PATCH's `replace` of them. */
async function replaceMembers(tx: Tx, companyId: number, groupId: number, wanted: number[]) {
  const current = await membersOf(tx, groupId);
  await setMembers(
    tx,
    companyId,
    groupId,
    wanted.filter((m) => !current.includes(m)),
    current.filter((m) => !wanted.includes(m)),
  );
}

async function ensureFreeName(tx: DbOrTx, companyId: number, name: string, exceptId?: number) {
  const [clash] = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.companyId, companyId), eq(sql`lower(${groups.name})`, name.toLowerCase())));
  if (clash && clash.id !== exceptId)
    throw new ScimError(409, 'A group with this displayName exists', 'uniqueness');
}

export async function createScimGroup(
  db: Db,
  base: string,
  companyId: number,
  body: Record<string, unknown>,
) {
  const name = text(body.displayName, 150);
  if (!name) throw invalid('displayName is required');
  const id = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(13002, ${companyId})`);
    await ensureFreeName(tx, companyId, name);
    const [row] = await tx.insert(groups).values({ companyId, name, permissions: [] }).returning();
    if (!row) throw new Error('group insert returned nothing');
    await tx
      .insert(scimGroups)
      .values({ groupId: row.id, companyId, externalId: text(body.externalId, 500) ?? null });
    await recordAudit(tx, {
      companyId,
      actorId: null,
      object: 'group',
      objectId: row.id,
      action: 'group_created',
      after: { name, permissions: [], source: 'scim' },
    });
    await setMembers(tx, companyId, row.id, await memberIds(tx, companyId, body.members), []);
    return row.id;
  });
  return getScimGroup(db, base, companyId, String(id));
}

async function renameGroup(tx: Tx, companyId: number, row: GroupRow, name: string | undefined) {
  if (!name || name === row.name) return;
  await ensureFreeName(tx, companyId, name, row.id);
  await tx.update(groups).set({ name }).where(eq(groups.id, row.id));
  await recordAudit(tx, {
    companyId,
    actorId: null,
    object: 'group',
    objectId: row.id,
    action: 'group_updated',
    before: { name: row.name },
    after: { name, source: 'scim' },
  });
}

export async function replaceScimGroup(
  db: Db,
  base: string,
  companyId: number,
  id: string,
  body: Record<string, unknown>,
) {
  const { group } = await findGroup(db, companyId, id);
  await db.transaction(async (tx) => {
    await renameGroup(tx, companyId, group, text(body.displayName, 150));
    if (body.externalId !== undefined)
      await tx
        .insert(scimGroups)
        .values({ groupId: group.id, companyId, externalId: text(body.externalId, 500) ?? null })
        .onConflictDoUpdate({
          target: scimGroups.groupId,
          set: { externalId: text(body.externalId, 500) ?? null },
        });
    await replaceMembers(tx, companyId, group.id, await memberIds(tx, companyId, body.members));
  });
  return getScimGroup(db, base, companyId, id);
}

/** `members[value eq "12"]` → 12. */
function memberOfPath(path: string): number | null {
  const match = /^members\[\s*value\s+eq\s+"(\d{1,9})"\s*\]$/i.exec(path.trim());
  return match ? Number(match[1]) : null;
}

/** A Group PATCH: add, remove and replace of `members` (Entra ID's and Okta's shapes) and of `displayName`. */
export async function patchScimGroup(
  db: Db,
  base: string,
  companyId: number,
  id: string,
  body: Record<string, unknown>,
) {
  const { group } = await findGroup(db, companyId, id);
  const operations = operationsOf(body);
  await db.transaction(async (tx) => {
    for (const operation of operations) {
      const op = opName(operation.op);
      const path = typeof operation.path === 'string' ? operation.path : '';
      const single = memberOfPath(path);
      if (op === 'remove' && single !== null) await setMembers(tx, companyId, group.id, [], [single]);
      else if (path.toLowerCase() === 'members') {
        const ids = await memberIds(tx, companyId, operation.value);
        if (op === 'add') await setMembers(tx, companyId, group.id, ids, []);
        else if (op === 'remove')
          await setMembers(tx, companyId, group.id, [], ids.length > 0 ? ids : await membersOf(tx, group.id));
        else if (op === 'replace') await replaceMembers(tx, companyId, group.id, ids);
        else throw invalid(`Unsupported op: ${String(operation.op).slice(0, 20)}`);
      } else if (op === 'replace' || op === 'add') {
        const value =
          path.toLowerCase() === 'displayname'
            ? { displayName: operation.value }
            : ((operation.value ?? {}) as Record<string, unknown>);
        const [fresh] = await tx.select().from(groups).where(eq(groups.id, group.id));
        if (fresh) await renameGroup(tx, companyId, fresh, text(value.displayName, 150));
        if (Array.isArray(value.members))
          await setMembers(tx, companyId, group.id, await memberIds(tx, companyId, value.members), []);
      } else throw invalid(`Unsupported op: ${String(operation.op).slice(0, 20)}`);
    }
  });
  return getScimGroup(db, base, companyId, id);
}

export async function deleteScimGroup(db: Db, companyId: number, id: string) {
  const { group } = await findGroup(db, companyId, id);
  await db.transaction(async (tx) => {
    await setMembers(tx, companyId, group.id, [], await membersOf(tx, group.id));
    await tx.delete(groups).where(eq(groups.id, group.id));
    await recordAudit(tx, {
      companyId,
      actorId: null,
      object: 'group',
      objectId: group.id,
      action: 'group_deleted',
      before: { name: group.name },
      after: { source: 'scim' },
    });
  });
}
