/**
 * Enterprise sign-in: each company's OpenID Connect provider and SCIM token, the e-mail domains it covers, the
 * sign-ins under way (state, nonce and PKCE verifier kept server-side), the provider identities linked to users,
 * the SSO sessions (for the provider's logout) and the SCIM ids of users and groups.
 */
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sessions } from './auth';
import { createdAt, ts } from './columns';
import { companies, groups, users } from './companies';

export const ssoConnections = pgTable(
  'sso_connections',
  {
    companyId: integer()
      .primaryKey()
      .references(() => companies.id, { onDelete: 'cascade' }),
    enabled: boolean().notNull().default(false),
    issuer: text().notNull(),
    clientId: text().notNull(),
    /** Sealed with the server's secret box (server/auth/secrets.ts); never sent back. */
    clientSecret: text(),
    groupsClaim: text().notNull().default('groups'),
    defaultRole: text().notNull().default('Restricted User'),
    /** `[{ claim, role, group_id }]` (contract/sso.ts). */
    mappings: jsonb()
      .$type<{ claim: string; role: string | null; group_id: number | null }[]>()
      .notNull()
      .default([]),
    ssoOnly: boolean().notNull().default(false),
    breakGlassUserIds: jsonb().$type<number[]>().notNull().default([]),
    /** SHA-256 of the SCIM bearer token: the token is shown once and only compared afterwards. */
    scimTokenHash: text(),
    updatedAt: createdAt(),
  },
  (t) => [uniqueIndex('sso_connections_scim_token').on(t.scimTokenHash)],
);

/** Which company's provider an e-mail domain signs in with: one company per domain. */
export const ssoDomains = pgTable(
  'sso_domains',
  {
    domain: text().primaryKey(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [index('sso_domains_company').on(t.companyId)],
);

/** A sign-in under way: found by the hash of its `state`, used once, within minutes. */
export const ssoStates = pgTable('sso_states', {
  stateHash: text().primaryKey(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** Sealed PKCE verifier. */
  codeVerifier: text().notNull(),
  nonce: text().notNull(),
  email: text().notNull(),
  returnTo: text(),
  expiresAt: ts().notNull(),
  usedAt: ts(),
  createdAt: createdAt(),
});

/** The provider's subject of a user (`iss` + `sub`): the same person whatever their e-mail becomes. */
export const ssoIdentities = pgTable(
  'sso_identities',
  {
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.companyId, t.issuer, t.subject] }),
    index('sso_identities_user').on(t.userId),
  ],
);

/** A studio session started by SSO: its sealed ID token is the hint of the provider's logout. */
export const ssoSessions = pgTable('sso_sessions', {
  sessionId: text()
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  idToken: text().notNull(),
});

/** A user provisioned by SCIM: the provider's `externalId`. */
export const scimUsers = pgTable(
  'scim_users',
  {
    userId: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    externalId: text(),
    /** Deleted by the provider: the user stays, disabled, for the audit trail, and is gone from SCIM. */
    deletedAt: ts(),
  },
  (t) => [index('scim_users_external').on(t.companyId, t.externalId)],
);

/** A group provisioned by SCIM: the provider's `externalId`. */
export const scimGroups = pgTable('scim_groups', {
  groupId: integer()
    .primaryKey()
    .references(() => groups.id, { onDelete: 'cascade' }),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  externalId: text(),
});
