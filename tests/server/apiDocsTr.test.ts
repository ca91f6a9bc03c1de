/**
 * The API documentation screen shows its operations' summaries in the studio's language. The server
 * writes them in English; locales/<lng>/apiDocs.json holds them by "METHOD /path" (src/ui/screens/swagger/
 * localize.ts). Every operation of the served document has its Turkish summary, and the English file is the
 * server's own text, so neither drifts from the routes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en-US/apiDocs.json';
import tr from '../../locales/tr/apiDocs.json';
import type { OpenApiDocument } from '../../src/services/api/apiDocs';
import { localizeDocument } from '../../src/ui/screens/swagger/localize';
import { get, startTestApp, type TestApp } from './helpers';

let t: TestApp;
let document: OpenApiDocument;
beforeAll(async () => {
  t = await startTestApp();
  document = (await get<OpenApiDocument>(t.app, '/api/v2/openapi.json')).body;
}, 180_000);
afterAll(async () => {
  await t.close();
});

type Operation = { summary?: string; tags?: string[] };
const operations = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({
      key: `${method.toUpperCase()} ${path}`,
      op,
    })),
  );

describe('the API documentation in Turkish', () => {
  it('every operation has a Turkish summary, and the English file is the server’s text', () => {
    const served = Object.fromEntries(operations(document).map(({ key, op }) => [key, op.summary]));
    expect(en.summaries).toEqual(served);
    expect(Object.keys(tr.summaries).sort()).toEqual(Object.keys(served).sort());
    const tags = [...new Set(operations(document).flatMap(({ op }) => op.tags ?? []))].sort();
    expect(Object.keys(tr.tags).sort()).toEqual(tags);
  });

  it('the Turkish document carries the Turkish summaries and tag names; English is left as served', () => {
    const turkish = localizeDocument(document, tr);
    const byKey = new Map(operations(turkish).map(({ key, op }) => [key, op]));
    expect(byKey.get('GET /api/v2/profile')?.summary).toBe('Profilleri listele');
    expect(byKey.get('GET /api/v2/profile')?.tags).toEqual(['profiller']);
    expect(byKey.get('POST /api/v1/login/')?.summary).toBe('Oturum aç');
    for (const { key, op } of operations(turkish)) expect(op.summary, key).toBe(tr.summaries[key as never]);
    expect(localizeDocument(document, en)).toEqual(document);
  });
});
