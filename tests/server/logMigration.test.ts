/** Migration 0012: English log rows of an existing database become event codes. */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { expect, it } from 'vitest';
import { englishLogMessage } from '../../server/domain/logText';

const migrations = join(import.meta.dirname, '../../server/db/migrations');

it('converts the stored sentences to codes with parameters, and keeps the rest readable', {
  timeout: 120_000,
}, async () => {
  // A database as it was before 0012: the migrations up to 0009.
  const folder = mkdtempSync(join(tmpdir(), 'mig-'));
  mkdirSync(join(folder, 'meta'));
  for (const file of readdirSync(migrations).filter((f) => /^000\d_.*\.sql$/.test(f))) {
    copyFileSync(join(migrations, file), join(folder, file));
  }
  const journal = JSON.parse(readFileSync(join(migrations, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx < 10);
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  const client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder: folder });
  rmSync(folder, { recursive: true });
  await client.exec(`
    INSERT INTO companies (id, name, region) VALUES (1, 'A', 'eu');
    INSERT INTO profiles (id, company_id, id_card_number) VALUES (1, 1, '1');
    INSERT INTO checklist_groups (id, company_id, name, sort_order) VALUES (1, 1, 'Identity', 1);
    INSERT INTO checklist_questions (id, group_id, question, sort_order)
      VALUES (1, 1, 'Does the photo match the selfie?', 1);
    INSERT INTO profile_logs (profile_id, action, message, data) VALUES
      (1, 'status_changed', 'Status changed from Created to Approved', '{"from":"Created","to":"Approved"}'),
      (1, 'document_rejected', 'Document PA #12 rejected: blurry photo here',
        '{"document_id":12,"reason":"blurry photo here"}'),
      (1, 'checklist_answered', 'Checklist answered: Does the photo match the selfie? (yes)',
        '{"question":1,"value":true}'),
      (1, 'aml_checked', 'AML check: 2 matches on OFAC SDN, EU Consolidated',
        '{"check_id":3,"status":"hit","matches":2,"score":90,"database":"X"}'),
      (1, 'videocall.status', 'Video call status: COMPLETE', '{"call":5,"status":3}'),
      (1, 'note.added', 'A note was added', '{}');
  `);
  const sql = readFileSync(join(migrations, '0012_log_event_codes.sql'), 'utf8');
  for (const statement of sql.split('--> statement-breakpoint')) await client.exec(statement);
  const rows = (
    await client.query<{ action: string; data: Record<string, unknown> }>(
      'SELECT action, data FROM profile_logs ORDER BY id',
    )
  ).rows;
  expect(rows.map((r) => englishLogMessage(r.action, r.data))).toEqual([
    'Status changed from Created to Approved',
    'Passport #12 rejected: blurry photo here',
    'Checklist answered: Does the photo match the selfie? (yes)',
    'AML check: 2 matches on OFAC SDN and EU Consolidated',
    'Video call #5 status: Complete',
    'A note was added',
  ]);
  expect(rows.map((r) => r.action)).toEqual([
    'status_changed',
    'document_rejected',
    'checklist_answered',
    'aml_checked',
    'call_status_set',
    'legacy_text',
  ]);
  expect(rows[2]?.data.text).toEqual({
    'en-US': 'Does the photo match the selfie?',
    tr: 'Fotoğraf özçekimle eşleşiyor mu?',
  });
  await client.close();
});
