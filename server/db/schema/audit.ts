/** The audit log of staff writes. */
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { companies, users } from './companies';

/**
 * The audit log: every staff write, with who, when, from which address, the object, the action
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
    // The log's filters with its order (docs/decisions/0164-keyset-lists.md).
    index('audit_log_company_action').on(t.companyId, t.action, t.createdAt, t.id),
    index('audit_log_company_actor').on(t.companyId, t.actorId, t.createdAt, t.id),
  ],
);
