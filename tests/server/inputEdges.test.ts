import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let token = '';

beforeAll(async () => {
  t = await startTestApp();
  token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(() => t.close());

describe('input at the edges gets 400, never 500', () => {
  it('an id beyond the id columns', async () => {
    for (const url of ['/api/v2/profile/99999999999', '/api/v2/profile/2147483648/documents']) {
      const answer = await get<{ detail: string }>(t.app, url, token);
      expect(answer.status, url).toBe(400);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    expect((await get(t.app, '/api/v2/profile/2147483647', token)).status).toBe(404);
  });

  it('a search with a NUL character', async () => {
    const answer = await get<{ detail: string }>(t.app, '/api/v2/profile?search=ab%00cd', token);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain('NUL');
  });
});
