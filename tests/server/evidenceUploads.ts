/** Uploads of evidence through the API, as the studio sends them: a call's recording and a document's pages. */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer } from './helpers';

/** PATCH /videocall/{id} with `body` as the call's webm recording, by `token`; expects 200. */
export async function uploadRecording(app: FastifyInstance, token: string, callId: number, body: Buffer) {
  const boundary = 'evidence-upload-boundary';
  const response = await app.inject({
    method: 'PATCH',
    url: `/api/v2/videocall/${callId}`,
    headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="call.webm"\r\n` +
          'Content-Type: video/webm\r\n\r\n',
      ),
      body,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** POST /document of one PNG page for `profile`, by `token`; expects 201 and answers the document's id. */
export async function uploadDocument(
  app: FastifyInstance,
  token: string,
  document: { profile: number; type: number; page: Buffer },
): Promise<number> {
  const form = new FormData();
  form.append('profile', String(document.profile));
  form.append('type', String(document.type));
  form.append('upload_source', 'studio');
  form.append('pages', new Blob([new Uint8Array(document.page)], { type: 'image/png' }), 'page.png');
  const response = await app.inject({
    method: 'POST',
    url: '/api/v2/document',
    payload: form,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: number }>().id;
}
