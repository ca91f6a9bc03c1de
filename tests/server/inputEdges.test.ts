import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

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
    expect(answer.body.detail).toBe('querystring.search: Must not contain control characters');
  });

  it('a multipart body cut off in the middle (upload of document pages, of a recording)', async () => {
    const boundary = 'cut-off-boundary';
    const cut = Buffer.from(
      [
        `--${boundary}`,
        'Content-Disposition: form-data; name="profile"',
        '',
        '3',
        `--${boundary}`,
        'Content-Disposition: form-data; name="pages"; filename="front.png"',
        'Content-Type: image/png',
        '',
        '\u0089PNG partial bytes and then nothing more',
      ].join('\r\n'),
    );
    for (const [method, url] of [
      ['POST', '/api/v2/document'],
      ['PATCH', '/api/v2/videocall/1'],
    ] as const) {
      const answer = await t.app.inject({
        method,
        url,
        headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: cut,
      });
      expect(answer.statusCode, url).toBe(400);
      expect(answer.json().detail, url).toEqual(expect.any(String));
    }
  });
});
