import { createServer, type Server } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../server/db/schema';
import { BLANKED_CODE, createDbOutbox, recentMail } from '../../server/integrations/mail';
import { startTestApp, type TestApp } from './helpers';

/** A tiny SMTP server on loopback that keeps what it receives (no TLS, no auth). */
function fakeSmtp(): Promise<{ server: Server; port: number; received: string[] }> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let inData = false;
    let data = '';
    let buffer = '';
    socket.write('220 fake ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end = buffer.indexOf('\r\n');
      while (end >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push(data);
            data = '';
            socket.write('250 queued\r\n');
          } else data += `${line}\n`;
        } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 fake\r\n');
        else if (/^DATA/i.test(line)) {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
        end = buffer.indexOf('\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, received });
    }),
  );
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('mail outbox', () => {
  it('stores without the code, prints one line with it, and sends by SMTP (with it) when a URL is set', async () => {
    const smtp = await fakeSmtp();
    const lines: string[] = [];
    try {
      const outbox = createDbOutbox(t.app.ctx.db, {
        print: (line) => lines.push(line),
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        from: 'Studio <no-reply@studio.test>',
        devCodesMs: 60_000,
      });
      await outbox.send({
        to: 'smtp@acme.test',
        subject: 'Your code',
        body: 'Your code is 424242.',
        code: '424242',
      });
      expect(lines).toEqual(['mail to=smtp@acme.test subject="Your code" code=424242']);
      expect(await recentMail(t.app.ctx.db, 'SMTP@acme.test')).toEqual([
        {
          to: 'smtp@acme.test',
          subject: 'Your code',
          body: 'Your code is 424242.',
          created_at: expect.any(String),
        },
      ]);
      // The table keeps the message without its code; the dev listing above put it back from memory.
      const stored = await t.app.ctx.db.select().from(mailOutbox).where(eq(mailOutbox.to, 'smtp@acme.test'));
      expect(stored.map((row) => row.body)).toEqual([`Your code is ${BLANKED_CODE}.`]);
      await expect.poll(() => smtp.received.length, { timeout: 5000 }).toBe(1);
      expect(smtp.received[0]).toContain('Subject: Your code');
      expect(smtp.received[0]).toContain('Your code is 424242.');
    } finally {
      smtp.server.close();
    }
  });
});
