/**
 * Signing in and signing up: sessions, passkeys and their challenges, one-time codes, self-service sign-ups
 * and the IP allowlist.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';

export const ipAllowlist = pgTable('ip_allowlist', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** IPv4/IPv6 address or CIDR block. */
  address: text().notNull(),
  /** What the admin called the entry ("Head office"). */
  label: text(),
  createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * Self-service sign-ups before the company exists (POST /stp/register): one row per registration, each with
 * its own password and the hash of the handle only its registrant got (nobody replaces another's).
 */
export const signups = pgTable(
  'signups',
  {
    id: id(),
    email: text().notNull(),
    passwordHash: text().notNull(),
    /** SHA-256 of the registration's handle (the answer of POST /stp/register); null for older rows. */
    handleHash: text(),
    emailVerifiedAt: ts(),
    companyId: integer().references(() => companies.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('signups_handle_hash_unique').on(t.handleHash),
    index('signups_email_idx').on(sql`lower(${t.email})`),
  ],
);

/** E-mailed one-time codes (reset password, e-mail verification); only a hash is kept. */
export const oneTimeCodes = pgTable(
  'one_time_codes',
  {
    id: id(),
    email: text().notNull(),
    /** reset_password | email_verification */
    purpose: text().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    expiresAt: ts().notNull(),
    usedAt: ts(),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_codes_email').on(sql`lower(${t.email})`, t.purpose)],
);

/**
 * Server-side sessions: one per sign-in; its id is the access token's `jti`. A token whose
 * session has ended (logout, Logout All, ended from /settings, a password change or reset) gets 401.
 * `lastSeenAt` and `lastIp` are written at most once a minute per session (server/domain/sessions.ts).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text().primaryKey(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userAgent: text().notNull().default(''),
    /** The address of the sign-in. */
    ip: text(),
    /** The address of the latest request (as of the last throttled write). */
    lastIp: text(),
    createdAt: createdAt(),
    lastSeenAt: ts().notNull().defaultNow(),
    expiresAt: ts().notNull(),
    endedAt: ts(),
    /** Why it ended (a SessionEndReason of contract/sessions.ts): the 401 of its token says so. */
    endReason: text(),
  },
  (t) => [index('sessions_user').on(t.userId, t.endedAt)],
);

/** A staff user's WebAuthn credential (server/domain/passkeys.ts). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** The credential id, base64url. */
    credentialId: text().notNull(),
    /** The COSE public key, base64url. */
    publicKey: text().notNull(),
    /** The authenticator's signature counter as last seen (0: the authenticator keeps none). */
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: jsonb().$type<string[]>().notNull().default([]),
    /** The relying party (host name) the credential was made for. */
    rpId: text().notNull(),
    name: text().notNull(),
    deviceType: text().notNull(),
    backedUp: boolean().notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: ts(),
  },
  (t) => [uniqueIndex('passkeys_credential_id').on(t.credentialId), index('passkeys_user').on(t.userId)],
);

/** A WebAuthn challenge: kept server-side until it expires or is used once. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: text().primaryKey(),
    /** `register` (a signed-in user adds a passkey) or `login` (any sign-in with a passkey). */
    purpose: text().notNull(),
    challenge: text().notNull(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    origin: text().notNull(),
    rpId: text().notNull(),
    expiresAt: ts().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webauthn_challenges_expires').on(t.expiresAt)],
);
