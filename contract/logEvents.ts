/**
 * The one catalogue of logged events. A profile's log and the company's audit log store
 * an event code with parameters, never a sentence; the studio turns them into sentences in the reader's
 * language (locales/<lng>/logs.json: `events.<code>` for the profile log, `actions.<code>` for the audit log).
 *
 * Adding an event: add its code here (with its parameters' schema for the profile log, or its object type
 * for the audit log), and its texts to locales/en-US/logs.json and locales/tr/logs.json. A code that is
 * missing here is a type error at the `writeLog` / `recordAudit` call.
 */
import { z } from 'zod';
import { PROFILE_STATUSES } from './constants';

/** A text in each studio language: a snapshot of company data (a checklist question) taken when it is logged. */
export const localizedTextSchema = z.object({ 'en-US': z.string(), tr: z.string() });
export type LocalizedText = z.infer<typeof localizedTextSchema>;

const id = z.number().int();
const count = z.number().int().nonnegative();
const profileStatus = z.enum(PROFILE_STATUSES);
/** The document an event is about: its id and class (`ID`, `PA`, … translated as the class's name). */
const document = { document_id: id, document_class: z.string() };

/** Profile log events: code → the schema of its parameters (stored in `profile_logs.data`). */
export const PROFILE_LOG_EVENTS = {
  profile_created: z.object({ id_card_number: z.string().optional() }),
  /** `fields`: the edit body's names (name, gender, email, phone, nationality, date_of_birth, address). */
  profile_updated: z.object({ fields: z.array(z.string()) }),
  status_changed: z.object({ from: profileStatus, to: profileStatus, reject_reason: z.string().optional() }),
  note_added: z.object({ note_id: id.optional(), kind: z.enum(['note', 'agent']) }),
  checklist_answered: z.object({ question: id, text: localizedTextSchema, value: z.boolean() }),
  document_uploaded: z.object({ ...document, pages: count, upload_source: z.string() }),
  document_approved: z.object({ ...document }),
  document_rejected: z.object({ ...document, reason: z.string().optional() }),
  document_archived: z.object({ ...document }),
  document_restored: z.object({ ...document }),
  document_deleted: z.object({ ...document }),
  /** `fields`: the document's field keys (FirstName, BirthDate, …). */
  document_fields_overridden: z.object({ ...document, fields: z.array(z.string()) }),
  /** `type`: the new document type's name (company data, as named). */
  document_type_changed: z.object({ ...document, from: id.nullable(), to: id, type: z.string() }),
  /** `alert`: the alert's code (translated when known), `name` as stored. */
  alert_overridden: z.object({
    alert_id: id,
    document_id: id,
    alert: z.string(),
    name: z.string(),
    reason: z.string(),
  }),
  aml_checked: z.object({
    check_id: id,
    status: z.string(),
    matches: count,
    score: z.number(),
    database: z.string(),
    lists: z.array(z.string()),
  }),
  aml_approved: z.object({ matches: count }),
  /** `status`: the call status code (0–9). */
  call_status_set: z.object({ call: id, status: id }),
  call_recording_stored: z.object({ call: id, size: count, sha256: z.string().optional() }),
  video_deleted: z.object({ call: id }),
  /** A call closed without its agent's status: by the server or an admin; `reason` a CALL_END_REASONS code. */
  call_closed: z.object({ call: id, status: id, reason: z.string(), note: z.string().nullable().optional() }),
  /** An admin corrected a call's final status: `before` and `status` are call status codes. */
  call_status_corrected: z.object({ call: id, before: id, status: id, reason: z.string() }),
  /**
   * A review decision took effect: `reason` the reason code's labels when it was taken; under
   * four-eyes `maker` (null once deleted) and `checker` are the two reviewers' names.
   */
  review_decided: z.object({
    case_id: id,
    decision: z.enum(['approve', 'reject', 'resubmit', 'escalate', 'abort']),
    reason_code: z.string().nullable(),
    reason: localizedTextSchema.nullable(),
    note: z.string().nullable(),
    maker: z.string().nullable().optional(),
    checker: z.string().optional(),
  }),
  /** An entry written as an English sentence before the catalogue existed, shown as it was written. */
  legacy_text: z.object({ text: z.string() }),
} as const;

export type ProfileLogCode = keyof typeof PROFILE_LOG_EVENTS;
export type ProfileLogParams<C extends ProfileLogCode> = z.input<(typeof PROFILE_LOG_EVENTS)[C]>;
export const PROFILE_LOG_CODES = Object.keys(PROFILE_LOG_EVENTS) as ProfileLogCode[];
export const isProfileLogCode = (code: string): code is ProfileLogCode =>
  Object.hasOwn(PROFILE_LOG_EVENTS, code);

/** The kinds of object the audit log records changes of. */
export const AUDIT_OBJECT_TYPES = [
  'user',
  'group',
  'profile',
  'document',
  'aml',
  'videocall',
  'ip_allowlist',
  'payment',
  'company',
  'signup',
  'passkey',
  'review_case',
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

/**
 * Audit actions: code → the object type it is recorded on. The parameters of an audit entry are the changed
 * fields before and after (`audit_log.before` / `after`); their labels are `fields.<name>` in logs.json.
 */
export const AUDIT_ACTIONS = {
  user_created: 'user',
  user_updated: 'user',
  user_enabled: 'user',
  user_disabled: 'user',
  user_mfa_reset: 'user',
  user_mfa_setup_forced: 'user',
  user_password_reset_forced: 'user',
  password_changed: 'user',
  group_created: 'group',
  group_updated: 'group',
  group_deleted: 'group',
  profile_created: 'profile',
  profile_updated: 'profile',
  status_changed: 'profile',
  document_uploaded: 'document',
  document_approved: 'document',
  document_rejected: 'document',
  document_archived: 'document',
  document_restored: 'document',
  document_deleted: 'document',
  document_fields_overridden: 'document',
  document_type_changed: 'document',
  alert_overridden: 'document',
  aml_checked: 'aml',
  aml_approved: 'aml',
  call_status_set: 'videocall',
  video_deleted: 'videocall',
  call_closed: 'videocall',
  call_status_corrected: 'videocall',
  recording_stored: 'videocall',
  /** A stored recording or document page whose bytes no longer match their SHA-256 (recorded on its own object). */
  evidence_hash_mismatch: 'videocall',
  /** An evidence package of the call was downloaded: its package id and files. */
  evidence_downloaded: 'videocall',
  /** The retention job deleted the call's evidence (the system as actor). */
  evidence_deleted: 'videocall',
  legal_hold_set: 'profile',
  legal_hold_lifted: 'profile',
  /** An Admin exported everything held about the person (Art. 15): the export id and its files. */
  profile_exported: 'profile',
  /** An Admin asked to erase the person (Art. 17): what went at once, what waits for its retention to end. */
  profile_erasure_requested: 'profile',
  /** The erasure job removed evidence whose retention ended (the system as actor). */
  profile_erasure_continued: 'profile',
  /** Nothing of the person is left but the anonymised stub. */
  profile_erased: 'profile',
  /** A delete or change of a held profile's evidence was refused (the hold's reason, what was tried, on what). */
  legal_hold_refused: 'profile',
  evidence_retention_changed: 'company',
  call_routing_changed: 'company',
  /** An Admin turned the company's relay-only calls on or off. */
  call_network_changed: 'company',
  /** A supervisor started or stopped watching a live call (`after.reason`: how the watch ended). */
  call_watch_started: 'videocall',
  call_watch_stopped: 'videocall',
  /** A watching supervisor whispered to the call's agent (`after.text`). */
  call_whisper_sent: 'videocall',
  /** An Admin turned the customers' notice that a supervisor may join calls on or off. */
  call_watch_changed: 'company',
  passkey_registered: 'passkey',
  passkey_removed: 'passkey',
  passkey_policy_changed: 'company',
  /** An Admin changed the language of the company's e-mail to users who chose none. */
  mail_language_changed: 'company',
  /** An Admin saved the company's identification procedure: before and after. */
  ident_procedure_changed: 'company',
  ip_allowlist_entry_added: 'ip_allowlist',
  ip_allowlist_entry_deleted: 'ip_allowlist',
  ip_allowlist_cleared: 'ip_allowlist',
  checkout_started: 'payment',
  payment_succeeded: 'payment',
  payment_declined: 'payment',
  checkout_expired: 'payment',
  payment_refunded: 'payment',
  plan_changed: 'company',
  company_created: 'company',
  registered: 'signup',
  email_verified: 'signup',
  /** The reviewers' desk: a case's steps, and the company's four-eyes rules and reason codes. */
  review_case_opened: 'review_case',
  review_case_assigned: 'review_case',
  review_case_unassigned: 'review_case',
  review_decision_pending: 'review_case',
  review_decision_confirmed: 'review_case',
  review_decision_returned: 'review_case',
  review_case_decided: 'review_case',
  review_case_escalated: 'review_case',
  review_case_waiting: 'review_case',
  review_case_resumed: 'review_case',
  review_case_moved: 'review_case',
  review_rules_changed: 'company',
  review_reason_codes_changed: 'company',
  review_queue_changed: 'company',
  reviewer_settings_changed: 'user',
  /** An Admin saved the company's single sign-on (the client secret never logged). */
  sso_configured: 'company',
  /** A user signed in through the company's identity provider. */
  sso_signed_in: 'user',
  /** A single sign-on was refused: `reason` says which check (issuer, audience, expired, nonce, state, domain, sso_only, …). */
  sso_sign_in_refused: 'user',
  /** An Admin renewed the company's SCIM token (the old one stopped working). */
  scim_token_rotated: 'company',
} as const satisfies Record<string, AuditObjectType>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
export const isAuditAction = (code: string): code is AuditAction => Object.hasOwn(AUDIT_ACTIONS, code);
