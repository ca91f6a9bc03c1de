import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const id = () => integer().primaryKey().generatedByDefaultAsIdentity();
const createdAt = () => timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = () => timestamp({ withTimezone: true, mode: 'date' });

// ---------------------------------------------------------------- reference data

export const countries = pgTable('countries', {
  code: text().primaryKey(),
  name: text().notNull(),
  nameTr: text().notNull(),
});

export const documentTypes = pgTable('document_types', {
  id: id(),
  name: text().notNull(),
  documentClass: text().notNull(),
  country: text(),
  sortOrder: integer().notNull().default(0),
});

export const packages = pgTable('packages', {
  id: id(),
  name: text().notNull(),
  description: text().notNull().default(''),
  verifications: integer().notNull(),
  priceCents: integer().notNull(),
  currency: text().notNull().default('EUR'),
  isCustom: boolean().notNull().default(false),
  sortOrder: integer().notNull().default(0),
  /** Services a paid plan switches on in the company config (null: the package names none). */
  services: jsonb().$type<string[]>(),
  /** Length of a paid period in days. */
  periodDays: integer().notNull().default(30),
});

// ---------------------------------------------------------------- companies, users, groups

export const companies = pgTable('companies', {
  id: id(),
  name: text().notNull(),
  /** Region name, one of the configured regions. */
  region: text().notNull(),
  amlProvider: text(),
  activeServices: jsonb().$type<string[]>().notNull().default([]),
  industry: text(),
  /** ISO 3166-1 alpha-2 country of the company (self-service sign-up, issue 16). */
  country: text(),
  packageId: integer().references(() => packages.id),
  paymentStatus: text().notNull().default('unpaid'),
  /** The paid plan's current period and the verifications it includes (issue 15). */
  planPeriodStart: ts(),
  planPeriodEnd: ts(),
  planVerifications: integer(),
  /** Staff must sign in with a passkey (issue 26 point 10, set by an Admin). */
  requirePasskeys: boolean().notNull().default(false),
  createdAt: createdAt(),
});

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
    /** The last RFC 6238 time step accepted for this user: each step signs in once (issue 26). */
    mfaLastStep: bigint({ mode: 'number' }),
    forcePasswordReset: boolean().notNull().default(false),
    forceMfaReset: boolean().notNull().default(false),
    agentStatus: text().notNull().default('Offline'),
    /** When the agent entered `agentStatus` (the status board's time in state). */
    agentStatusSince: ts(),
    lastLogin: ts(),
    /** When the user was last disabled: tokens without a session issued before it stay dead (issue 26). */
    disabledAt: ts(),
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

// ---------------------------------------------------------------- profiles and documents

export const profiles = pgTable(
  'profiles',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    idCardNumber: text().notNull(),
    name: text(),
    gender: text(),
    email: text(),
    phone: text(),
    nationality: text(),
    dateOfBirth: date({ mode: 'string' }),
    addressProvince: text(),
    addressCity: text(),
    addressStreet: text(),
    status: text().notNull().default('Created'),
    riskLevel: text().notNull().default('Unknown'),
    rejectReason: text(),
    /** Government-check data (SPEC §3 extra data, GET /profile/{id}/nvi). */
    extraData: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    source: text().notNull().default('studio'),
    qualityCheck: jsonb().$type<Record<string, unknown>>(),
    aliases: jsonb().$type<string[]>().notNull().default([]),
    riskScores: jsonb().$type<{ phone: number | null; email: number | null; ip: number | null }>(),
    summary: text(),
    /** Bumped by every write (issue 12): GET answers it as `version` and `ETag`, writes send it as If-Match. */
    version: integer().notNull().default(1),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    lastStatusDate: ts(),
  },
  (t) => [
    // Ascending on purpose: a backward scan serves `ORDER BY created_at DESC, id DESC` (NULLS FIRST).
    index('profiles_company_created').on(t.companyId, t.createdAt, t.id),
    index('profiles_company_status').on(t.companyId, t.status),
    index('profiles_company_risk').on(t.companyId, t.riskLevel),
    // The dashboard (GET /bitool): approvals and rejections by their last status change.
    index('profiles_company_status_date').on(t.companyId, t.lastStatusDate),
  ],
);

export const documents = pgTable(
  'documents',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    documentTypeId: integer().references(() => documentTypes.id),
    documentClass: text().notNull(),
    uploadSource: text().notNull().default('studio'),
    stream: boolean().notNull().default(false),
    cropped: boolean().notNull().default(false),
    rotated: boolean().notNull().default(false),
    archived: boolean().notNull().default(false),
    /** pending_review | approved | rejected */
    status: text().notNull().default('pending_review'),
    reviewReason: text(),
    reviewedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: ts(),
    expiryDate: date({ mode: 'string' }),
    /** { document, fraud, biometric, cross }: each { result, score } */
    checks: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Extracted content fields: IDNumber, FirstName, ... */
    content: jsonb().$type<Record<string, string | null>>().notNull().default({}),
    /** Fields overridden by staff, applied over `content`. */
    contentOverrides: jsonb().$type<Record<string, string | null>>().notNull().default({}),
    /**
     * The four check results `document|fraud|biometric|cross` (empty where missing), kept by PostgreSQL:
     * the dashboard groups documents by it instead of reading every `checks` value (GET /bitool).
     */
    checkResults: text().generatedAlwaysAs(
      sql`coalesce(checks #>> '{document,result}', '') || '|' || coalesce(checks #>> '{fraud,result}', '') || '|' || coalesce(checks #>> '{biometric,result}', '') || '|' || coalesce(checks #>> '{cross,result}', '')`,
    ),
    deletedAt: ts(),
    /** Bumped by every write (issue 12), like the profile's. */
    version: integer().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    index('documents_profile').on(t.profileId, t.createdAt),
    // The dashboard (GET /bitool): documents uploaded in a range.
    index('documents_company_created').on(t.companyId, t.createdAt),
  ],
);

export const documentPages = pgTable(
  'document_pages',
  {
    id: id(),
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    pageNumber: integer().notNull(),
    storageKey: text().notNull(),
    contentType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    width: integer(),
    height: integer(),
    /** SHA-256 (hex) of the stored bytes, computed while streaming (issue 25: checked again when served). */
    sha256: text(),
  },
  (t) => [
    index('document_pages_document').on(t.documentId, t.pageNumber),
    index('document_pages_storage_key').on(t.storageKey),
  ],
);

/** Alerts / rules raised on a document (PUT /profile/{id}/rule/{ruleId} overrides one). */
export const documentAlerts = pgTable(
  'document_alerts',
  {
    id: id(),
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    code: text().notNull(),
    name: text().notNull(),
    /** passed | warning | failed */
    result: text().notNull(),
    overridden: boolean().notNull().default(false),
    overrideReason: text(),
    overriddenBy: integer().references(() => users.id, { onDelete: 'set null' }),
    overriddenAt: ts(),
  },
  (t) => [index('document_alerts_document').on(t.documentId)],
);

export const deviceData = pgTable(
  'device_data',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    documentId: integer().references(() => documents.id, { onDelete: 'cascade' }),
    brand: text(),
    model: text(),
    carrier: text(),
    os: text(),
    osVersion: text(),
    sdkVersion: text(),
    browser: text(),
    useragent: text(),
    ip: text(),
    createdAt: createdAt(),
  },
  (t) => [index('device_data_profile').on(t.profileId), index('device_data_document').on(t.documentId)],
);

export const notes = pgTable(
  'notes',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** note | agent (POST /profile/{id}/agent_note) */
    kind: text().notNull().default('note'),
    note: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('notes_profile').on(t.profileId, t.createdAt)],
);

export const profileLogs = pgTable(
  'profile_logs',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** An event code of contract/logEvents.ts (PROFILE_LOG_EVENTS); `data` holds its parameters. */
    action: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('profile_logs_profile').on(t.profileId, t.id)],
);

// ---------------------------------------------------------------- AML

export const amlResults = pgTable('aml_results', {
  id: id(),
  profileId: integer()
    .notNull()
    .unique()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  lists: jsonb().$type<string[]>().notNull().default([]),
  score: integer().notNull().default(0),
  records: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
  approved: boolean(),
  approvedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  approvedAt: ts(),
  updatedAt: createdAt(),
});

export const amlHistory = pgTable(
  'aml_history',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    /** clear | hit | error */
    status: text().notNull(),
    scannedDatabase: text().notNull(),
    matches: integer().notNull().default(0),
    records: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    index('aml_history_profile').on(t.profileId, t.createdAt),
    // The dashboard (GET /bitool): screenings in a range (joined to the company's profiles).
    index('aml_history_created').on(t.createdAt, t.profileId),
  ],
);

// ---------------------------------------------------------------- video calls

export const videoCalls = pgTable(
  'video_calls',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    agentId: integer().references(() => users.id, { onDelete: 'set null' }),
    roomId: text().notNull(),
    status: integer().notNull().default(0),
    callStartTime: ts(),
    callEndTime: ts(),
    recordingKey: text(),
    recordingSize: bigint({ mode: 'number' }),
    /**
     * Why the call was closed when its agent did not set the status (issue 25): a CALL_END_REASONS code
     * (contract/constants.ts); null for a status the agent set.
     */
    endReason: text(),
    /** Who set the final status: the agent, an admin (close or correction); null when the server closed it. */
    statusSetBy: integer(),
    /** SHA-256 (hex) of the stored recording (issue 25: written once, checked again when served). */
    recordingSha256: text(),
    /** SHA-256 (hex) of the join-link token the customer created the call with (one call per link at a time). */
    joinLink: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('video_calls_profile').on(t.profileId, t.createdAt),
    index('video_calls_join_link').on(t.joinLink, t.status),
    index('video_calls_recording_key').on(t.recordingKey),
    index('video_calls_company_status').on(t.companyId, t.status),
    // The call report and the dashboard: a company's calls created in a range.
    index('video_calls_company_created').on(t.companyId, t.createdAt),
  ],
);

export const videoCallQuestions = pgTable('video_call_questions', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  sortOrder: integer().notNull(),
  textEn: text().notNull(),
  textTr: text().notNull(),
});

export const videoCallAnswers = pgTable(
  'video_call_answers',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    questionId: integer().references(() => videoCallQuestions.id, { onDelete: 'set null' }),
    value: text(),
    note: text(),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('video_call_answers_call').on(t.callId)],
);

// ---------------------------------------------------------------- checklists and questionnaires

export const checklistGroups = pgTable('checklist_groups', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  /** The Turkish name (null: the English one is shown). */
  nameTr: text(),
  sortOrder: integer().notNull(),
});

export const checklistQuestions = pgTable('checklist_questions', {
  id: id(),
  groupId: integer()
    .notNull()
    .references(() => checklistGroups.id, { onDelete: 'cascade' }),
  question: text().notNull(),
  /** The Turkish text (null: the English one is shown). */
  questionTr: text(),
  sortOrder: integer().notNull(),
});

export const checklistAnswers = pgTable(
  'checklist_answers',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    questionId: integer()
      .notNull()
      .references(() => checklistQuestions.id, { onDelete: 'cascade' }),
    value: boolean(),
    note: text(),
    answeredBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('checklist_answers_profile_question').on(t.profileId, t.questionId)],
);

export const questionnaireQuestions = pgTable('questionnaire_questions', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  title: text().notNull(),
  /** The Turkish title (null: the English one is shown). */
  titleTr: text(),
  /** single_choice | multiple_choice */
  answerType: text().notNull(),
  optional: boolean().notNull().default(false),
  sortOrder: integer().notNull(),
  /** Options: [{ id, text, text_tr? }] (text_tr: the Turkish text). */
  answers: jsonb().$type<{ id: number; text: string; text_tr?: string }[]>().notNull().default([]),
});

export const questionnaireAnswers = pgTable(
  'questionnaire_answers',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    questionId: integer()
      .notNull()
      .references(() => questionnaireQuestions.id, { onDelete: 'cascade' }),
    skipped: boolean().notNull().default(false),
    singleOptionAnswer: integer(),
    multipleOptionAnswer: jsonb().$type<number[]>().notNull().default([]),
    typedAnswer: text(),
    createdAt: createdAt(),
  },
  (t) => [index('questionnaire_answers_profile').on(t.profileId)],
);

// ---------------------------------------------------------------- webhooks

/** Company-wide webhook settings (GET/PUT /webhook, GET/PATCH /webhook/token). */
export const webhookSettings = pgTable('webhook_settings', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  url: text(),
  /** AES-GCM encrypted token. */
  token: text().notNull(),
  signatureEnabled: boolean().notNull().default(true),
});

/** Event toggles with last-triggered time (GET /events). */
export const webhookEventToggles = pgTable(
  'webhook_event_toggles',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    enabled: boolean().notNull().default(true),
    lastTriggeredAt: ts(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.event] })],
);

export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  url: text().notNull(),
  enabledEvents: jsonb().$type<string[]>().notNull().default([]),
  /** AES-GCM encrypted signing secret. */
  secret: text().notNull(),
  isActive: boolean().notNull().default(true),
  createdAt: createdAt(),
  description: text().notNull().default(''),
  /** The secret before the last rotation (encrypted); it signs too until `previousSecretExpiresAt`. */
  previousSecret: text(),
  previousSecretExpiresAt: ts(),
  /** Set when the server disabled the endpoint (failing too long); cleared when enabled again. */
  disabledReason: text(),
  /** First failed attempt since the last success; null while healthy. */
  failingSince: ts(),
});

/**
 * The durable outbox (docs/webhooks.md): one row per event, inserted in the transaction of the change it
 * reports. The worker fans each out into deliveries, one per subscribed endpoint.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: id(),
    /** The `webhook-id` header: the same on every attempt and replay. */
    msgId: text().notNull().unique(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    eventType: text().notNull(),
    /** The exact body sent, `{ "type", "timestamp", "data" }` as JSON text (replays send the same bytes). */
    body: text().notNull(),
    /** Only this endpoint (test events); null: every subscribed endpoint. */
    endpointId: integer().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    fannedOut: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_messages_pending').on(t.fannedOut, t.id)],
);

/** One message to one endpoint: its state and the time of its next attempt (a lease while one runs). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    messageId: integer()
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** pending (waiting or retrying), succeeded, failed (final). */
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts().notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint').on(t.endpointId, t.status),
  ],
);

export const webhookLogs = pgTable(
  'webhook_logs',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    endpointId: integer().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    url: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    responseStatus: integer(),
    responseBody: text(),
    success: boolean().notNull(),
    attempt: integer().notNull().default(1),
    durationMs: integer(),
    createdAt: createdAt(),
    deliveryId: integer().references(() => webhookDeliveries.id, { onDelete: 'set null' }),
    msgId: text(),
    requestHeaders: jsonb().$type<Record<string, string>>().notNull().default({}),
    error: text(),
    nextRetryAt: ts(),
  },
  (t) => [
    index('webhook_logs_company').on(t.companyId, t.id),
    index('webhook_logs_endpoint').on(t.endpointId, t.id),
  ],
);

// ---------------------------------------------------------------- security, billing, outbox

export const ipAllowlist = pgTable('ip_allowlist', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** IPv4/IPv6 address or CIDR block. */
  address: text().notNull(),
  /** What the admin called the entry ("Head office"), issue 15. */
  label: text(),
  createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

export const payments = pgTable(
  'payments',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    packageId: integer().references(() => packages.id),
    amountCents: integer().notNull(),
    currency: text().notNull(),
    /** open | paid | declined | expired */
    status: text().notNull(),
    sessionId: text().notNull().unique(),
    createdAt: createdAt(),
    paidAt: ts(),
    /** The checkout session's address and end of life (set by the payment provider). */
    checkoutUrl: text(),
    expiresAt: ts(),
    /** Who started the purchase (null: the company's self-service sign-up). */
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    /** Receipt number, given when the provider reports the payment (R-YYYY-000123). */
    receiptNumber: text().unique(),
    /** The provider's receipt page for a paid session. */
    receiptUrl: text(),
    /** Why a payment was declined (the provider's decline code). */
    failureCode: text(),
  },
  (t) => [index('payments_company').on(t.companyId, t.createdAt)],
);

/**
 * Signed notifications of the payment provider already applied, by their id: a replayed or retried
 * notification (same id) changes nothing. Written in the transaction that applies it.
 */
export const paymentNotifications = pgTable('payment_notifications', {
  id: text().primaryKey(),
  type: text().notNull(),
  sessionId: text().notNull(),
  receivedAt: createdAt(),
});

/**
 * Self-service sign-ups before the company exists (POST /stp/register): one row per registration, each with
 * its own password and the hash of the handle only its registrant got (issue 26: nobody replaces another's).
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

/** The local mail integration: every e-mail the server "sends" is stored here. */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text().notNull(),
  subject: text().notNull(),
  body: text().notNull(),
  createdAt: createdAt(),
});

/** Payments and transfers of a customer (the Transactions tab; company service `transactions`). */
export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    occurredAt: ts().notNull(),
    /** deposit | withdrawal | transfer_in | transfer_out | card_payment */
    kind: text().notNull(),
    /** In minor units (cents, kuruş). */
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    counterparty: text(),
    /** completed | pending | declined */
    status: text().notNull(),
    flagReason: text(),
  },
  (t) => [index('transactions_profile').on(t.profileId, t.occurredAt)],
);

export const supportMessages = pgTable('support_messages', {
  id: id(),
  email: text().notNull(),
  message: text().notNull(),
  page: text(),
  userId: integer().references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

/**
 * The audit log (issue 13): every staff write, with who, when, from which address, the object, the action
 * and the before/after of the changed fields. Written only by `recordAudit` (server/domain/audit.ts).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** Kept beside the id so the entry still names its author if the user row goes. */
    actorEmail: text(),
    ip: text(),
    /** user | group | profile | document | aml | videocall | webhook | ip_allowlist | payment … */
    objectType: text().notNull(),
    objectId: text().notNull(),
    action: text().notNull(),
    before: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    after: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_company_created').on(t.companyId, t.createdAt, t.id),
    index('audit_log_company_object').on(t.companyId, t.objectType, t.objectId),
  ],
);

/**
 * Server-side sessions (issue 20): one per sign-in; its id is the access token's `jti`. A token whose
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
    /** Why it ended (a SessionEndReason of contract/sessions.ts; issue 27): the 401 of its token says so. */
    endReason: text(),
  },
  (t) => [index('sessions_user').on(t.userId, t.endedAt)],
);

// ---------------------------------------------------------------- passkeys (issue 26 point 10)

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
