/**
 * CSV export of the audit log (pure: no DOM), with the call report's rules (statsCsv.ts): RFC 4180 quoting,
 * CRLF lines, formula-like text prefixed with an apostrophe. In the reader's language: the object type, the
 * action's name and the changes as sentences; the raw changes stay one column per side, as JSON, for tools.
 */
import type { AuditEntry } from '#contract/audit';
import { auditActionName, auditObjectName, describeAuditChanges, type LogReader } from '#contract/logText';
import { csvLine } from './statsCsv';

export interface AuditCsvLabels {
  time: string;
  user: string;
  address: string;
  objectType: string;
  objectId: string;
  action: string;
  changes: string;
  before: string;
  after: string;
}

export function auditCsv(entries: readonly AuditEntry[], reader: LogReader, labels: AuditCsvLabels): string {
  const lines = [
    csvLine([
      labels.time,
      labels.user,
      labels.address,
      labels.objectType,
      labels.objectId,
      labels.action,
      labels.changes,
      labels.before,
      labels.after,
    ]),
    ...entries.map((e) =>
      csvLine([
        e.created_at,
        e.actor_email ?? (e.actor === null ? '' : `#${e.actor}`),
        e.ip,
        auditObjectName(reader.t, e.object_type),
        e.object_id,
        auditActionName(reader.t, e.action),
        describeAuditChanges(reader, e).join('; '),
        Object.keys(e.before).length > 0 ? JSON.stringify(e.before) : '',
        Object.keys(e.after).length > 0 ? JSON.stringify(e.after) : '',
      ]),
    ),
  ];
  return `${lines.join('\r\n')}\r\n`;
}
