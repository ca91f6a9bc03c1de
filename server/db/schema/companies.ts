/** Companies, their staff users and groups. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { packages } from './reference';

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text().notNull(),
    /** Region name, one of the configured regions. */
    region: text().notNull(),
    amlProvider: text(),
    activeServices: jsonb().$type<string[]>().notNull().default([]),
    industry: text(),
    /** ISO 3166-1 alpha-2 country of the company (given at self-service sign-up). */
    country: text(),
    packageId: integer().references(() => packages.id),
    paymentStatus: text().notNull().default('unpaid'),
    /** The paid plan's current period and the verifications it includes. */
    planPeriodStart: ts(),
    planPeriodEnd: ts(),
    planVerifications: integer(),
    /** Staff must sign in with a passkey (set by an Admin). */
    requirePasskeys: boolean().notNull().default(false),
    /** Days a call's evidence (recording, screenshots) is kept after the call (365..3653, default 5 years). */
    evidenceRetentionDays: integer().notNull().default(1826),
    /** How waiting calls reach agents: `ring_all` (every free agent) or `one_at_a_time`. */
    callRouting: text().notNull().default('ring_all'),
    /** One-at-a-time routing: seconds an agent is offered a call before the next is (5..120). */
    offerSeconds: integer().notNull().default(15),
    /** New calls one join link may start after its calls ended by a technical abort (0..5, default 1). */
    joinLinkRetries: integer().notNull().default(1),
    /** Calls connect through the TURN server only: neither side learns the other's address. */
    relayOnlyCalls: boolean().notNull().default(false),
    /** The customer's page says a supervisor may join the call for quality purposes (docs/decisions/0208-supervisors-watch-calls.md). */
    callWatchNotice: boolean().notNull().default(true),
    /** The language of the company's e-mail when its user has none ('en' or 'tr'). */
    mailLanguage: text().notNull().default('en'),
    createdAt: createdAt(),
  },
  (t) => [check('companies_join_link_retries_range', sql`${t.joinLinkRetries} BETWEEN 0 AND 5`)],
);

export const groups = pgTable('groups', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  permissions: jsonb().$type<string[]>().notNull().default([]),
});

export const users = pgTable(
  'users',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    phone: text(),
    photoKey: text(),
    passwordHash: text().notNull(),
    role: text().notNull(),
    isActive: boolean().notNull().default(true),
    isSuperuser: boolean().notNull().default(false),
    isStaff: boolean().notNull().default(false),
    isApiUser: boolean().notNull().default(false),
    /** TOTP secret, AES-GCM encrypted; set once 2FA is verified. */
    mfaSecret: text(),
    /** Secret shown as a QR code and not yet verified. */
    mfaPendingSecret: text(),
    /** The last RFC 6238 time step accepted for this user: each step signs in once. */
    mfaLastStep: bigint({ mode: 'number' }),
    forcePasswordReset: boolean().notNull().default(false),
    forceMfaReset: boolean().notNull().default(false),
    agentStatus: text().notNull().default('Offline'),
    /** When the agent entered `agentStatus` (the status board's time in state). */
    agentStatusSince: ts(),
    lastLogin: ts(),
    /** When the user was last disabled: tokens without a session issued before it stay dead. */
    disabledAt: ts(),
    /** The languages the agent speaks with customers (AGENT_LANGUAGES), set in administration. */
    languages: jsonb().$type<string[]>().notNull().default([]),
    /** The screen `/` opens (START_PAGES of contract/users.ts): 'customers' or 'review'. */
    startPage: text().notNull().default('customers'),
    /** The language of the user's e-mail ('en' or 'tr'); null: the company's (docs/decisions/0161-mail-templates.md). */
    mailLanguage: text(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_company_email').on(t.companyId, sql`lower(${t.email})`),
    index('users_email').on(sql`lower(${t.email})`),
  ],
);

export const userGroups = pgTable(
  'user_groups',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.groupId] })],
);
