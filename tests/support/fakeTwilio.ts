import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of Twilio's Messages resource (docs/decisions/0159): `POST
 * /2010-04-01/Accounts/{AccountSid}/Messages.json` with a form body and Basic credentials, answered as Twilio
 * does (201 and the message, 401 for other credentials, or the status a test sets with its error body).
 */
export interface FakeTwilio {
  /** `http://127.0.0.1:<port>`: TWILIO_API_BASE. */
  url: string;
  /** Every request: its path, authorization header and decoded form. */
  received: { path: string; authorization: string | undefined; form: Record<string, string> }[];
  /**
   * Answers with this status and a Twilio error body until set back to null; its message is `failMessage`
   * with `{Body}` replaced by the message's text (a gateway that echoes what it refused).
   */
  failWith: number | null;
  failMessage: string;
  close(): Promise<void>;
}

export async function startFakeTwilio(accountSid: string, authToken: string): Promise<FakeTwilio> {
  const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`;
  const send = (response: import('node:http').ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString()));
    const path = request.url ?? '';
    fake.received.push({ path, authorization: request.headers.authorization, form });
    if (request.headers.authorization !== expected)
      return send(response, 401, { code: 20003, message: 'Authenticate', status: 401 });
    if (request.method !== 'POST' || path !== `/2010-04-01/Accounts/${accountSid}/Messages.json`)
      return send(response, 404, {
        code: 20404,
        message: 'The requested resource was not found',
        status: 404,
      });
    if (fake.failWith !== null)
      return send(response, fake.failWith, {
        code: 21211,
        message: fake.failMessage.replace('{Body}', form.Body ?? ''),
        status: fake.failWith,
      });
    send(response, 201, {
      sid: `SM${'0'.repeat(32)}`,
      account_sid: accountSid,
      to: form.To,
      from: form.From ?? null,
      messaging_service_sid: form.MessagingServiceSid ?? null,
      body: form.Body,
      status: 'queued',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const fake: FakeTwilio = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: [],
    failWith: null,
    failMessage: 'Invalid parameter',
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
  return fake;
}
