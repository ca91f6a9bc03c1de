/**
 * CSV export of the audit log (pure: no DOM), with the call report's rules (statsCsv.ts): RFC 4180 quoting,
 * CRLF lines, formula-like text prefixed with an apostrophe. The changes are one column per side, as JSON.
 */
import type { AuditEntry } from '../contract/audit';
import { csvLine } from './statsCsv';

export interface AuditCsvLabels {
  time: string;
  user: string;
  address: string;
  objectType: string;
  objectId: string;
  action: string;
  before: string;
  after: string;
}

export function auditCsv(entries: readonly AuditEntry[], labels: AuditCsvLabels): string {
  const lines = [
    csvLine([
      labels.time,
      labels.user,
      labels.address,
      labels.objectType,
      labels.objectId,
      labels.action,
      labels.before,
      labels.after,
    ]),
    ...entries.map((e) =>
      csvLine([
        e.created_at,
        e.actor_email ?? (e.actor === null ? '' : `#${e.actor}`),
        e.ip,
        e.object_type,
        e.object_id,
        e.action,
        Object.keys(e.before).length > 0 ? JSON.stringify(e.before) : '',
        Object.keys(e.after).length > 0 ? JSON.stringify(e.after) : '',
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** `field: before → after` for each changed field (the table's summary of a change). */
export function auditChanges(entry: Pick<AuditEntry, 'before' | 'after'>): string[] {
  const keys = [...new Set([...Object.keys(entry.before), ...Object.keys(entry.after)])];
  const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));
  return keys.map((key) => `${key}: ${show(entry.before[key])} → ${show(entry.after[key])}`);
}
