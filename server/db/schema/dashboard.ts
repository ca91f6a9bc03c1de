/** The dashboard's rollups (GET /bitool). */
import { date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * The dashboard's profile, AML and document figures of a company per UTC day (docs/decisions/0170-dashboard-rollups.md): written only by
 * the triggers of migration 0036 on profiles, aml_history and documents, in the writing transaction; rows at
 * zero are deleted. `source` and `key`:
 * - `created`: profiles by the day of created_at, key = current status;
 * - `decided`: profiles by the day of last_status_date (when set), key = current status;
 * - `screened`: aml_history rows by the day of created_at, key = '' (`hits` and `errors` beside `n`);
 * - `checked`: documents not deleted, by the day of created_at, key = check_results.
 */
export const dashboardRollups = pgTable(
  'dashboard_rollups',
  {
    companyId: integer().notNull(),
    day: date().notNull(),
    source: text().$type<'created' | 'decided' | 'screened' | 'checked'>().notNull(),
    key: text().notNull(),
    n: integer().notNull().default(0),
    hits: integer().notNull().default(0),
    errors: integer().notNull().default(0),
  },
  (t) => [primaryKey({ name: 'dashboard_rollups_pkey', columns: [t.companyId, t.source, t.day, t.key] })],
);
