/**
 * Logged events as sentences in the reader's language. Pure: given i18next's `t` (keys
 * written `namespace:key`) and the language, it words a profile-log event or an audit entry's changes. The
 * studio calls it with the UI's language; the server with English, for the `message` of GET
 * /profile/{id}/logs and the summariser. Status names, document classes and field labels come from the
 * namespaces that already hold them (profile, calls, documents, admin); the sentences from logs.json.
 */
import type { z } from 'zod';
import { isProfileLogCode, type LocalizedText, PROFILE_LOG_EVENTS, type ProfileLogCode } from './logEvents';

/** i18next's `t`, loosely typed: the keys are built from stored codes. */
export type Translate = (key: string, options?: Record<string, unknown>) => string;
export interface LogReader {
  t: Translate;
  language: string;
}

/** `Pending Review` → `pendingReview`, `Temp. Approval Expired` → `tempApprovalExpired` (profile.json keys). */
const statusKey = (status: string) =>
  status
    .replace(/\./g, '')
    .split(/\s+/)
    .map((word, i) =>
      i === 0 ? word.toLowerCase() : word.charAt(0).toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join('');

const label = (t: Translate, key: string, fallback: string) => t(key, { defaultValue: fallback });
export const profileStatusName = (t: Translate, status: string) =>
  label(t, `profile:profileStatus.${statusKey(status)}`, status);
export const callStatusName = (t: Translate, code: number | string) =>
  label(t, `calls:statusNames.${code}`, String(code));
export const documentClassName = (t: Translate, documentClass: string) =>
  label(t, `profile:documentClass.${documentClass}`, documentClass);
export const fieldName = (t: Translate, field: string) => label(t, `logs:fields.${field}`, field);
export const auditActionName = (t: Translate, action: string) => label(t, `logs:actions.${action}`, action);
export const auditObjectName = (t: Translate, type: string) => label(t, `logs:objects.${type}`, type);

/** A company text logged in every language, in the reader's (English when the language has none). */
export const localized = (text: LocalizedText, language: string) =>
  language.startsWith('tr') ? text.tr || text['en-US'] : text['en-US'];

const listOf = (language: string, items: string[]) =>
  new Intl.ListFormat(language, { style: 'long', type: 'conjunction' }).format(items);

type Params<C extends ProfileLogCode> = z.output<(typeof PROFILE_LOG_EVENTS)[C]>;
type Describe<C extends ProfileLogCode> = (p: Params<C>, r: LogReader) => string;

const document = (p: { document_id: number; document_class: string }, { t }: LogReader) => ({
  document: documentClassName(t, p.document_class),
  id: p.document_id,
});
const documentEvent = (key: string) => (p: { document_id: number; document_class: string }, r: LogReader) =>
  r.t(`logs:events.${key}`, document(p, r));

const DESCRIBE: { [C in ProfileLogCode]: Describe<C> } = {
  profile_created: (_p, { t }) => t('logs:events.profile_created'),
  profile_updated: (p, { t, language }) =>
    t('logs:events.profile_updated', {
      fields: listOf(
        language,
        p.fields.map((f) => fieldName(t, f)),
      ),
    }),
  status_changed: (p, { t }) =>
    t(p.reject_reason ? 'logs:events.status_changed_reason' : 'logs:events.status_changed', {
      from: profileStatusName(t, p.from),
      to: profileStatusName(t, p.to),
      reason: p.reject_reason,
    }),
  note_added: (p, { t }) => t(`logs:events.note_added_${p.kind}`),
  checklist_answered: (p, { t, language }) =>
    t('logs:events.checklist_answered', {
      question: localized(p.text, language),
      answer: t(p.value ? 'logs:values.yes' : 'logs:values.no'),
    }),
  document_uploaded: (p, r) =>
    r.t('logs:events.document_uploaded', {
      ...document(p, r),
      count: p.pages,
      source: label(r.t, `documents:source.${p.upload_source}`, p.upload_source),
    }),
  document_approved: documentEvent('document_approved'),
  document_rejected: (p, r) =>
    r.t(p.reason ? 'logs:events.document_rejected_reason' : 'logs:events.document_rejected', {
      ...document(p, r),
      reason: p.reason,
    }),
  document_archived: documentEvent('document_archived'),
  document_restored: documentEvent('document_restored'),
  document_deleted: documentEvent('document_deleted'),
  document_fields_overridden: (p, r) =>
    r.t('logs:events.document_fields_overridden', {
      ...document(p, r),
      fields: listOf(
        r.language,
        p.fields.map((f) => label(r.t, `documents:fields.${f}`, f)),
      ),
    }),
  document_type_changed: (p, r) =>
    r.t('logs:events.document_type_changed', { ...document(p, r), type: p.type }),
  alert_overridden: (p, { t }) =>
    t('logs:events.alert_overridden', {
      alert: label(t, `documents:alerts.codes.${p.alert}`, p.name),
      reason: p.reason,
    }),
  aml_checked: (p, { t, language }) =>
    p.matches === 0
      ? t('logs:events.aml_checked_clear')
      : t('logs:events.aml_checked', { count: p.matches, lists: listOf(language, p.lists) }),
  aml_approved: (p, { t }) =>
    p.matches === 0
      ? t('logs:events.aml_approved_none')
      : t('logs:events.aml_approved', { count: p.matches }),
  call_status_set: (p, { t }) =>
    t('logs:events.call_status_set', { call: p.call, status: callStatusName(t, p.status) }),
  call_recording_stored: (p, { t, language }) =>
    t('logs:events.call_recording_stored', {
      call: p.call,
      size: new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(p.size / 1_048_576),
    }),
  video_deleted: (p, { t }) => t('logs:events.video_deleted', { call: p.call }),
  call_closed: (p, { t }) =>
    t('logs:events.call_closed', {
      call: p.call,
      status: callStatusName(t, p.status),
      reason: label(t, `common:callEndReasons.${p.reason}`, p.reason),
    }),
  call_status_corrected: (p, { t }) =>
    t('logs:events.call_status_corrected', {
      call: p.call,
      from: callStatusName(t, p.before),
      to: callStatusName(t, p.status),
      reason: p.reason,
    }),
  review_decided: (p, { t, language }) =>
    [
      t('logs:events.review_decided', { decision: t(`logs:decisions.${p.decision}`) }),
      p.reason ? t('logs:events.review_decided_reason', { reason: localized(p.reason, language) }) : null,
      p.note ? t('logs:events.review_decided_note', { note: p.note }) : null,
      p.checker
        ? t('logs:events.review_decided_four_eyes', {
            maker: p.maker ?? t('logs:values.empty'),
            checker: p.checker,
          })
        : null,
    ]
      .filter(Boolean)
      .join(' · '),
  legacy_text: (p) => p.text,
};

/** The sentence of one profile-log entry (an unknown code or parameters that do not fit: the code, named). */
export function describeProfileLog(reader: LogReader, code: string, data: Record<string, unknown>): string {
  if (!isProfileLogCode(code)) return reader.t('logs:events.unknown', { code });
  const parsed = PROFILE_LOG_EVENTS[code].safeParse(data);
  if (!parsed.success) return reader.t('logs:events.unknown', { code });
  return (DESCRIBE[code] as Describe<ProfileLogCode>)(parsed.data as never, reader);
}

const ROLE_KEYS: Record<string, string> = { Admin: 'admin', User: 'user', 'Restricted User': 'restricted' };

/** One value of an audit entry's before/after, in the reader's language where it names a status or a kind. */
export function auditValue(reader: LogReader, objectType: string, field: string, value: unknown): string {
  const { t, language } = reader;
  if (value === null || value === undefined || value === '') return t('logs:values.empty');
  if (typeof value === 'boolean') return t(value ? 'logs:values.yes' : 'logs:values.no');
  if (Array.isArray(value))
    return listOf(
      language,
      value.map((v) => auditValue(reader, objectType, field, v)),
    );
  if (typeof value === 'object') return JSON.stringify(value);
  const text = String(value);
  if (field === 'status' && objectType === 'profile') return profileStatusName(t, text);
  if (field === 'status' && objectType === 'videocall') return callStatusName(t, text);
  if (field === 'status' && objectType === 'document') return label(t, `documents:status.${text}`, text);
  if (field === 'document_class') return documentClassName(t, text);
  if (field === 'alert') return label(t, `documents:alerts.codes.${text}`, text);
  if (field === 'upload_source') return label(t, `documents:source.${text}`, text);
  if (field === 'role' && ROLE_KEYS[text]) return label(t, `admin:roles.${ROLE_KEYS[text]}`, text);
  return text;
}

/** `Field: before → after` for each changed field of an audit entry, in the reader's language. */
export function describeAuditChanges(
  reader: LogReader,
  entry: { object_type: string; before: Record<string, unknown>; after: Record<string, unknown> },
): string[] {
  const keys = [...new Set([...Object.keys(entry.before), ...Object.keys(entry.after)])];
  const show = (source: Record<string, unknown>, key: string) =>
    key in source ? auditValue(reader, entry.object_type, key, source[key]) : reader.t('logs:values.empty');
  return keys.map(
    (key) => `${fieldName(reader.t, key)}: ${show(entry.before, key)} → ${show(entry.after, key)}`,
  );
}
