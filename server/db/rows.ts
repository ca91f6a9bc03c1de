/**
 * Many rows as ONE bound parameter: a JSON array read back by `jsonb_to_recordset`. A batch of a thousand rows
 * then costs one parameter instead of thousands (binding them is most of a multi-row insert's time on PGlite),
 * and never nears PostgreSQL's 65,535 parameters per statement.
 *
 * `columns` is the SQL column list of the record, e.g. `case_id int, user_id int`: a fixed string of the
 * caller's, never user input.
 */
import { type SQL, sql } from 'drizzle-orm';

export function jsonRows(rows: readonly Record<string, unknown>[], columns: string): SQL {
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(${sql.raw(columns)})`;
}
