/**
 * Finding "any user with view_company_page reads webhook payloads and signature headers": the delivery
 * logs show them only to who manages webhooks (Admin); others see the attempts without their content.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookLog } from '#contract/webhooks';
import { loadConfig } from '../../server/config';
import { groups, userGroups, users } from '../../server/db/schema';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from '../server/helpers';

let t: TestApp;
let receiver: Server;
let admin: string;
let member: string;
beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('{"echo":"the receiver answers"}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = loadConfig({ DATA_DIR: tmpdir(), JWT_SECRET: 'x'.repeat(40) }).webhooks;
  t = await startTestApp({ webhooks: { ...base, allowPrivate: true } });
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  // agent@acme.test (role User) gets view_company_page through a group: the company page, not webhook admin.
  const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
  const [group] = await t.app.ctx.db
    .insert(groups)
    .values({ companyId: 1, name: 'Company page', permissions: ['view_company_page'] })
    .returning();
  await t.app.ctx.db.insert(userGroups).values({ userId: agent?.id as number, groupId: group?.id as number });
  member = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('webhook delivery logs', () => {
  it('show payloads, signature headers and answers to the Admin only', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const endpoint = await post<{ id: number }>(t.app, '/api/v2/webhook_endpoint', { url }, admin);
    expect(endpoint.status).toBe(201);
    const sent = await post<{ success: boolean }>(
      t.app,
      `/api/v2/webhook_endpoint/${endpoint.body.id}/test`,
      {},
      admin,
    );
    expect(sent.body.success).toBe(true);

    const paths = [`/api/v2/webhook_endpoint/${endpoint.body.id}/logs`, '/api/v2/webhook/logs'];
    for (const path of paths) {
      const asAdmin = await get<{ results: WebhookLog[] }>(t.app, path, admin);
      const log = asAdmin.body.results[0];
      expect(log?.request_headers?.['webhook-signature']).toMatch(/^v1,/);
      expect(log?.payload).toMatchObject({ type: 'webhook.test' });
      expect(log?.response_body).toContain('the receiver answers');

      const asMember = await get<{ results: WebhookLog[] }>(t.app, path, member);
      expect(asMember.status, path).toBe(200);
      const seen = asMember.body.results[0];
      // The attempt itself is there…
      expect(seen).toMatchObject({ id: log?.id, event: 'webhook.test', success: true, response_status: 200 });
      // …without what it carried.
      expect(seen).toMatchObject({
        payload: null,
        request_body: null,
        request_headers: null,
        response_body: null,
      });
      expect(JSON.stringify(asMember.body)).not.toContain('v1,');
    }
  });
});
