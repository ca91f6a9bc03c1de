/**
 * Administration of users: invite, edit, enable / disable, force a password reset, force or reset
 * two-factor, and a user's own password change. Every write runs in one transaction with its audit entry;
 * the caller's own password is confirmed first (the password prompt). Roles map to permissions in one table,
 * `ROLE_PERMISSIONS` (contract/constants.ts), combined with groups by `permissionsOf` (principal.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { EMAIL_MESSAGE } from '#contract/auth';
import { AGENT_LANGUAGES } from '#contract/callRouting';
import type { Role } from '#contract/common';
import type { AuditAction } from '#contract/logEvents';
import { isAcceptablePassword, PASSWORD_RULE_DETAIL } from '#contract/passwords';
import { DAY_MS } from '#contract/time';
import type {
  ChangePasswordBody,
  User,
  UserResetPasswordBody,
  userCreateBodySchema,
  userUpdateBodySchema,
} from '#contract/users';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { AppContext } from '../context';
import type { Tx } from '../db/client';
import { companies, groups, userGroups, users } from '../db/schema';
import { badRequest, DETAILS, forbidden, notFound } from '../errors';
import { sendTemplated } from '../integrations/mailTemplates/send';
import { changedFields, recordAudit } from './audit';
import { issueCode } from './oneTimeCodes';
import type { Principal } from './principal';
import { getUser } from './users';
import { enqueueWebhookEvent } from './webhooks';

type CreateBody = z.output<typeof userCreateBodySchema>;
type UpdateBody = z.output<typeof userUpdateBodySchema>;
type Ctx = Pick<AppContext, 'db' | 'config' | 'storage' | 'mail' | 'regions' | 'sessions'>;
type UserRow = typeof users.$inferSelect;

export const USER_DETAILS = {
  duplicateEmail: 'A user with this e-mail address already exists',
  unknownGroup: 'Unknown group',
  lastAdmin: 'The company must keep at least one enabled admin',
  disableSelf: 'You cannot disable yourself',
  invalidPhone: 'This is not a valid phone number',
  passwordRequired: 'Your password is required',
  emailMismatch: 'The e-mail address is not the user’s',
} as const;

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * DAY_MS;

const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
const PHONE_PATTERN = /^\+?[0-9 ().-]{3,32}$/;

function checkEmail(email: string): string {
  const trimmed = email.trim();
  if (trimmed.length < 6 || trimmed.length > 254 || !EMAIL_PATTERN.test(trimmed))
    throw badRequest(EMAIL_MESSAGE);
  return trimmed;
}

function checkPhone(phone: string | null | undefined): string | null | undefined {
  if (phone === undefined || phone === null) return phone;
  if (!PHONE_PATTERN.test(phone)) throw badRequest(USER_DETAILS.invalidPhone);
  return phone;
}

/** 400 `Wrong password` unless `password` is the caller's own. */
export async function confirmOwnPassword(
  ctx: Ctx,
  me: Principal,
  password: string | undefined,
): Promise<void> {
  if (!password) throw badRequest(USER_DETAILS.passwordRequired);
  const [row] = await ctx.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, me.id));
  if (!row || !(await verifyPassword(row.hash, password))) throw badRequest(DETAILS.wrongPassword);
}

/** The company's user row, locked; 404 for an unknown id or another company's user. */
async function lockUser(tx: Tx, companyId: number, userId: number): Promise<UserRow> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

async function ensureUniqueEmail(tx: Tx, companyId: number, email: string, exceptId?: number) {
  const [clash] = await tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        eq(sql`lower(${users.email})`, email.toLowerCase()),
        exceptId === undefined ? undefined : ne(users.id, exceptId),
      ),
    )
    .limit(1);
  if (clash) throw badRequest(USER_DETAILS.duplicateEmail);
}

async function checkGroups(tx: Tx, companyId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await tx
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.companyId, companyId), inArray(groups.id, unique)));
  if (found.length !== unique.length) throw badRequest(USER_DETAILS.unknownGroup);
  return unique.sort((a, b) => a - b);
}

async function groupIdsOf(tx: Tx, userId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: userGroups.groupId })
    .from(userGroups)
    .where(eq(userGroups.userId, userId));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Serialises admin changes per company, so two admins cannot both demote the other. */
const ADMIN_LOCK = 13_001;

/** 400 when the change would leave the company with no enabled Admin. */
async function keepOneAdmin(tx: Tx, row: UserRow, next: { role: Role; isActive: boolean }) {
  const wasAdmin = row.role === 'Admin' && row.isActive;
  const staysAdmin = next.role === 'Admin' && next.isActive;
  if (!wasAdmin || staysAdmin) return;
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_LOCK}, ${row.companyId})`);
  const [others] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(
      and(
        eq(users.companyId, row.companyId),
        eq(users.role, 'Admin'),
        eq(users.isActive, true),
        ne(users.id, row.id),
      ),
    );
  if ((others?.n ?? 0) === 0) throw badRequest(USER_DETAILS.lastAdmin);
}

/** What the audit keeps of a user (never the password hash or two-factor secrets). */
function auditView(row: UserRow, groupIds: number[]) {
  return {
    first_name: row.firstName,
    last_name: row.lastName,
    username: row.email,
    phone: row.phone,
    role: row.role,
    is_active: row.isActive,
    groups: groupIds,
    mfa: row.mfaSecret !== null,
    force_password_reset: row.forcePasswordReset,
    force_mfa_reset: row.forceMfaReset,
    languages: row.languages,
    start_page: row.startPage,
    mail_language: row.mailLanguage,
  };
}

async function answer(ctx: Ctx, companyId: number, userId: number): Promise<User> {
  const user = await getUser(ctx.db, ctx.storage, companyId, userId);
  if (!user) throw notFound();
  return user;
}

/** The studio address of a company's region, for links in e-mails. */
async function studioAddress(ctx: Ctx, companyId: number): Promise<string> {
  const [company] = await ctx.db
    .select({ region: companies.region })
    .from(companies)
    .where(eq(companies.id, companyId));
  return ctx.regions.find((r) => r.name === company?.region)?.server ?? ctx.config.publicUrl;
}

/**
 * POST /user: a new user who sets their own password through an invitation e-mail (a reset code valid
 * `INVITATION_TTL_MS`, in a link to /reset-password). No password is chosen by or shown to the admin.
 */
export async function createUser(ctx: Ctx, me: Principal, body: CreateBody): Promise<User> {
  await confirmOwnPassword(ctx, me, body.password);
  const email = checkEmail(body.username);
  const phone = checkPhone(body.phone) ?? null;
  // Nobody knows this password: the invited user sets theirs with the e-mailed code.
  const unusable = await hashPassword(randomBytes(32).toString('base64url'), ctx.config.argon2);
  const studio = await studioAddress(ctx, me.companyId);
  const id = await ctx.db.transaction(async (tx) => {
    await ensureUniqueEmail(tx, me.companyId, email);
    const groupIds = await checkGroups(tx, me.companyId, body.groups);
    const [row] = await tx
      .insert(users)
      .values({
        companyId: me.companyId,
        email,
        firstName: body.first_name,
        lastName: body.last_name,
        phone,
        passwordHash: unusable,
        role: body.role,
        isStaff: body.role === 'Admin',
        languages: AGENT_LANGUAGES.filter((language) => body.languages.includes(language)),
      })
      .returning();
    if (!row) throw new Error('user insert returned nothing');
    if (groupIds.length > 0)
      await tx.insert(userGroups).values(groupIds.map((groupId) => ({ userId: row.id, groupId })));
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'user',
      objectId: row.id,
      action: 'user_created',
      after: auditView(row, groupIds),
    });
    await enqueueWebhookEvent(tx, me.companyId, 'user.created', { user_id: row.id, role: row.role });
    const code = await issueCode(
      tx,
      ctx.config.jwtSecret,
      { ttlMs: INVITATION_TTL_MS, maxAttempts: ctx.config.oneTimeCodes.maxAttempts },
      email,
      'reset_password',
    );
    // Queued with the user: a rolled-back creation mails nothing (docs/decisions/0160-mail-queue.md).
    await sendTemplated(
      { mail: ctx.mail, db: tx },
      'invitation',
      { email, companyId: me.companyId },
      {
        firstName: body.first_name,
        link: `${studio}/reset-password?${new URLSearchParams({ email, code })}`,
        code,
        days: Math.round(INVITATION_TTL_MS / DAY_MS),
      },
      { codeValidMs: INVITATION_TTL_MS },
    );
    return row.id;
  });
  return answer(ctx, me.companyId, id);
}

/** What a user changes of their own without admin rights or password: name, phone, start page, e-mail language. */
const OWN_FIELDS = new Set(['first_name', 'last_name', 'phone', 'start_page', 'mail_language']);

/** Whether a PATCH touches only the caller's own name, phone, start page and e-mail language (no admin rights). */
export function isOwnProfileEdit(me: Principal, userId: number, body: UpdateBody): boolean {
  return (
    userId === me.id &&
    Object.entries(body).every(
      ([key, value]) => value === undefined || key === 'password' || OWN_FIELDS.has(key),
    )
  );
}

/** The action name of an update, for the audit log and the studio's message. */
function updateAction(body: UpdateBody): AuditAction {
  if (body.is_active === true) return 'user_enabled';
  if (body.is_active === false) return 'user_disabled';
  if (body.reset_mfa) return 'user_mfa_reset';
  if (body.force_mfa_setup) return 'user_mfa_setup_forced';
  return 'user_updated';
}

/**
 * PATCH /user/{id}. Admins (role checked by the route) edit any field of a user of their company; anyone
 * edits their own name, phone and start page. Nobody disables themself, and the last enabled Admin is never disabled
 * or demoted. A disabled user's sessions end (their next request is 401, their sockets close); a role or group
 * change applies to the user's next request in every process (each request loads its principal).
 */
export async function updateUser(ctx: Ctx, me: Principal, userId: number, body: UpdateBody): Promise<User> {
  const own = isOwnProfileEdit(me, userId, body);
  if (!own) {
    if (me.role !== 'Admin' || !me.permissions.includes('view_admin_page')) throw forbidden();
    await confirmOwnPassword(ctx, me, body.password);
  }
  const email = body.username === undefined ? undefined : checkEmail(body.username);
  const phone = checkPhone(body.phone);
  await ctx.db.transaction(async (tx) => {
    const row = await lockUser(tx, me.companyId, userId);
    if (body.is_active === false && userId === me.id) throw badRequest(USER_DETAILS.disableSelf);
    if (email !== undefined && email.toLowerCase() !== row.email.toLowerCase())
      await ensureUniqueEmail(tx, me.companyId, email, userId);
    await keepOneAdmin(tx, row, {
      role: body.role ?? (row.role as Role),
      isActive: body.is_active ?? row.isActive,
    });
    const beforeGroups = await groupIdsOf(tx, userId);
    const nextGroups =
      body.groups === undefined ? beforeGroups : await checkGroups(tx, me.companyId, body.groups);
    const changes: Partial<typeof users.$inferInsert> = {
      firstName: body.first_name,
      lastName: body.last_name,
      email,
      phone,
      role: body.role,
      isStaff: body.role === undefined ? undefined : body.role === 'Admin',
      isActive: body.is_active,
      languages:
        body.languages === undefined ? undefined : AGENT_LANGUAGES.filter((l) => body.languages?.includes(l)),
      startPage: body.start_page,
      mailLanguage: body.mail_language,
      // Tokens without a session (a forced two-factor setup's) issued before this stay dead.
      ...(body.is_active === false && row.isActive ? { disabledAt: new Date() } : {}),
      ...(body.force_mfa_setup ? { forceMfaReset: true } : {}),
      ...(body.reset_mfa ? { forceMfaReset: true, mfaSecret: null, mfaPendingSecret: null } : {}),
    };
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    const [updated] =
      Object.keys(defined).length > 0
        ? await tx.update(users).set(defined).where(eq(users.id, userId)).returning()
        : [row];
    if (!updated) throw notFound();
    if (body.groups !== undefined && nextGroups.join() !== beforeGroups.join()) {
      await tx.delete(userGroups).where(eq(userGroups.userId, userId));
      if (nextGroups.length > 0)
        await tx.insert(userGroups).values(nextGroups.map((groupId) => ({ userId, groupId })));
    }
    const diff = changedFields(auditView(row, beforeGroups), auditView(updated, nextGroups));
    if (Object.keys(diff.after).length > 0)
      await recordAudit(tx, {
        companyId: me.companyId,
        actorId: me.id,
        object: 'user',
        objectId: userId,
        action: updateAction(body),
        ...diff,
      });
  });
  // Disabling ends every session (and with them the sockets) for good: enabling later revives none.
  if (body.is_active === false) await ctx.sessions.endAllOf(ctx.db, [userId], null, 'disabled');
  return answer(ctx, me.companyId, userId);
}

/**
 * POST /user/{id}/reset_password: the user's next sign-in answers `Password Reset Required`, and their
 * sessions end now (the caller's own session stays when an admin forces their own reset).
 */
export async function forcePasswordReset(
  ctx: Ctx,
  me: Principal,
  userId: number,
  body: UserResetPasswordBody,
  currentSession: string | null = null,
): Promise<User> {
  await confirmOwnPassword(ctx, me, body.password);
  const studio = await studioAddress(ctx, me.companyId);
  await ctx.db.transaction(async (tx) => {
    const row = await lockUser(tx, me.companyId, userId);
    if (body.email !== undefined && body.email.toLowerCase() !== row.email.toLowerCase())
      throw badRequest(USER_DETAILS.emailMismatch);
    if (row.forcePasswordReset) return;
    await tx.update(users).set({ forcePasswordReset: true }).where(eq(users.id, userId));
    await sendTemplated(
      { mail: ctx.mail, db: tx },
      'forced_reset',
      { email: row.email, companyId: me.companyId },
      {
        firstName: row.firstName || row.email,
        link: `${studio}/reset-password?${new URLSearchParams({ email: row.email })}`,
      },
    );
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'user',
      objectId: userId,
      action: 'user_password_reset_forced',
      before: { force_password_reset: false },
      after: { force_password_reset: true },
    });
  });
  await ctx.sessions.endAllOf(
    ctx.db,
    [userId],
    userId === me.id ? currentSession : null,
    'password_reset_required',
  );
  return answer(ctx, me.companyId, userId);
}

/**
 * POST /user/{id}/change_password: one's own password, with the current one (docs/product/validation.md#passwords). Every other
 * session of the user ends; `currentSession` stays.
 */
export async function changeOwnPassword(
  ctx: Ctx,
  me: Principal,
  userId: number,
  body: ChangePasswordBody,
  currentSession: string | null = null,
): Promise<void> {
  if (userId !== me.id) {
    const other = await getUser(ctx.db, ctx.storage, me.companyId, userId);
    throw other ? forbidden() : notFound();
  }
  await confirmOwnPassword(ctx, me, body.password);
  if (!isAcceptablePassword(body.new_password)) throw badRequest(PASSWORD_RULE_DETAIL);
  const passwordHash = await hashPassword(body.new_password, ctx.config.argon2);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, forcePasswordReset: false }).where(eq(users.id, me.id));
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'user',
      objectId: me.id,
      action: 'password_changed',
    });
  });
  await ctx.sessions.endAllOf(ctx.db, [me.id], currentSession, 'password_changed');
}
