import { z } from 'zod';
import { calendarDate, idText, isoDateTime, keysetPageSchema, keysetPagingQuery, lineText } from './common';

/** One entry of the audit log (GET /api/v2/audit). */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  created_at: isoDateTime,
  /** The user who made the change (null: the system, or a user since deleted). */
  actor: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  /** The client address of the request. */
  ip: z.string().nullable(),
  object_type: z.string(),
  object_id: z.string(),
  action: z.string(),
  /** The changed fields before and after the write (secrets and passwords never). */
  before: z.record(z.string(), z.unknown()),
  after: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

const word = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9_.]+$/, 'Expected lower-case letters, digits, _ or .');

export const auditListQuerySchema = z.strictObject({
  ...keysetPagingQuery,
  user: idText.optional(),
  object_type: word.optional(),
  object_id: lineText.trim().min(1).max(64).optional(),
  action: word.optional(),
  /** UTC days, both included. */
  start_date: calendarDate.optional(),
  end_date: calendarDate.optional(),
});
export type AuditListQuery = z.infer<typeof auditListQuerySchema>;
export const auditPageSchema = keysetPageSchema(auditEntrySchema);

/** The object types and actions the studio offers as filters: the catalogue of logged events. */
export { AUDIT_ACTION_CODES, AUDIT_ACTIONS, AUDIT_OBJECT_TYPES, type AuditAction } from './logEvents';
