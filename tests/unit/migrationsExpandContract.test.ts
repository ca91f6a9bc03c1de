/**
 * Migrations run at start while the previous release's processes still serve on the same database (a rolling
 * upgrade): a migration only expands the schema, unless it says it contracts what an earlier migration expanded
 * (docs/decisions/0224-expand-then-contract-migrations.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FOLDER = join(import.meta.dirname, '..', '..', 'server', 'db', 'migrations');
/** Migrations up to this number were written for stop-the-world upgrades. */
const CHECKED_AFTER = 47;

/** The statements an old process's queries break on. */
const CONTRACTING: [string, RegExp][] = [
  ['DROP COLUMN', /\bdrop\s+column\b/i],
  ['DROP TABLE', /\bdrop\s+table\b/i],
  ['DROP TYPE', /\bdrop\s+type\b/i],
  ['DROP CONSTRAINT', /\bdrop\s+constraint\b/i],
  ['RENAME', /\brename\b/i],
  ['ALTER COLUMN … TYPE', /\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i],
  ['SET NOT NULL', /\bset\s+not\s+null\b/i],
  [
    'ADD COLUMN … NOT NULL without DEFAULT',
    /\badd\s+column\b(?:(?!;|\bdefault\b)[\s\S])*\bnot\s+null\b(?:(?!\bdefault\b)[^;])*;/i,
  ],
];

/** The contracting statements of a migration's SQL (comments left out). */
function contractingStatements(sql: string): string[] {
  const code = sql.replace(/--[^\n]*/g, '');
  return CONTRACTING.filter(([, pattern]) => pattern.test(code)).map(([name]) => name);
}

/** The expand migration a contract names on its first line (`-- contract: expanded in NNNN_name.sql`). */
function contractOf(sql: string): string | null {
  return /^--\s*contract:\s*expanded in\s+(\S+\.sql)/i.exec(sql.trimStart())?.[1] ?? null;
}

const migrations = readdirSync(FOLDER)
  .filter((name) => /^\d{4}_.*\.sql$/.test(name))
  .sort();

describe('expand, then contract', () => {
  it('finds what breaks an old process, and only that', () => {
    expect(contractingStatements('ALTER TABLE "a" ADD COLUMN "b" text;')).toEqual([]);
    expect(contractingStatements('ALTER TABLE "a" ADD COLUMN "b" integer DEFAULT 0 NOT NULL;')).toEqual([]);
    expect(contractingStatements('ALTER TABLE "a" ADD COLUMN "b" integer NOT NULL DEFAULT 0;')).toEqual([]);
    expect(contractingStatements('ALTER TABLE "a" ADD COLUMN "b" integer NOT NULL;')).toEqual([
      'ADD COLUMN … NOT NULL without DEFAULT',
    ]);
    expect(contractingStatements('ALTER TABLE "a" DROP COLUMN "b";')).toEqual(['DROP COLUMN']);
    expect(contractingStatements('ALTER TABLE "a" RENAME COLUMN "b" TO "c";')).toEqual(['RENAME']);
    expect(contractingStatements('ALTER TABLE "a" ALTER COLUMN "b" SET DATA TYPE bigint;')).toEqual([
      'ALTER COLUMN … TYPE',
    ]);
    expect(contractingStatements('ALTER TABLE "a" ALTER COLUMN "b" SET NOT NULL;')).toEqual(['SET NOT NULL']);
    expect(contractingStatements('-- we never DROP TABLE here\nCREATE TABLE "x" (id int);')).toEqual([]);
    expect(contractOf('-- contract: expanded in 0050_x.sql\nALTER TABLE "a" DROP COLUMN "b";')).toBe(
      '0050_x.sql',
    );
  });

  it.each(migrations.filter((name) => Number(name.slice(0, 4)) > CHECKED_AFTER))(
    '%s only expands, or contracts what an earlier migration expanded',
    (name) => {
      const sql = readFileSync(join(FOLDER, name), 'utf8');
      const contract = contractOf(sql);
      if (contract === null) {
        expect(contractingStatements(sql), `${name} contracts the schema without saying so`).toEqual([]);
        return;
      }
      expect(migrations, `${name} names a migration that does not exist`).toContain(contract);
      expect(contract < name, `${name} must contract what an earlier migration expanded`).toBe(true);
    },
  );
});
