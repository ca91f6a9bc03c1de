import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signIn } from './support';

/** A receiver on loopback that answers 200 with a small JSON body. */
let receiver: Server;
let receiverUrl = '';
const received: string[] = [];
test.beforeAll(async () => {
  receiver = createServer((req, res) => {
    // The first test counts the deliveries to its own address only.
    if (req.url === '/hooks') received.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true,"from":"e2e receiver"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
test.afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

const shots = process.env.WEBHOOK_SCREENSHOTS;

test('an admin adds an endpoint, tests it, reveals its secret, replays a delivery and deletes it', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/company-settings');
  await expect(page.getByRole('heading', { level: 2, name: 'Company settings' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Webhooks' })).toHaveAttribute('aria-selected', 'true');
  const endpoints = page.getByRole('table', { name: 'Endpoints' });
  await expect(endpoints.locator('tbody tr')).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Events' })).toContainText('profile.status_changed');

  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
  await dialog.getByLabel('Endpoint URL').fill('not a url');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Please type a valid url')).toBeVisible();
  await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
  await dialog.getByLabel('Description').fill('Playwright receiver');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = endpoints.locator('tbody tr', { hasText: receiverUrl });
  await expect(row).toContainText('All events');
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: 'Details' }).click();
  await expect(row).toContainText('Never');
  const deleteButton = row.getByRole('button', { name: 'Delete' });
  const aimedAt = await deleteButton.boundingBox();
  const detail = page.getByLabel(`Endpoint ${receiverUrl}`);
  await detail.getByRole('button', { name: 'Send test event' }).click();
  await expect(detail.getByRole('status')).toContainText('The receiver answered 200');
  await expect(detail.getByRole('status')).toContainText('e2e receiver');
  // The row's figures refresh live; its buttons stay where the pointer is (a click for Delete once landed beside
  // it when the columns followed their content).
  await expect(row).toContainText('100 % (1)');
  expect(await deleteButton.boundingBox()).toEqual(aimedAt);

  await detail.getByRole('button', { name: 'Reveal' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await prompt.getByLabel('Password').fill('Admin@2026');
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(detail.getByTestId('webhook-secret')).toHaveText(/^whsec_[A-Za-z0-9+/]{40,}=*$/);
  if (shots) await page.screenshot({ path: `${shots}/webhooks-en-light.png`, fullPage: true });

  const log = detail.getByRole('table', { name: 'Delivery log' });
  await expect(log.locator('tbody tr')).toHaveCount(1);
  await log.locator('tbody tr').first().click();
  const drawer = page.getByRole('region', { name: 'Delivery attempt 1' });
  await expect(drawer).toContainText('webhook-signature: v1,');
  await expect(drawer).toContainText('{"type":"webhook.test","timestamp":');
  if (shots) await page.screenshot({ path: `${shots}/webhooks-drawer-en-light.png` });
  await drawer.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByText('1 delivery queued')).toBeVisible();
  await expect.poll(() => received.length).toBe(2);
  expect(received[1]).toBe(received[0]);

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete the endpoint ${receiverUrl}?`);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(endpoints.locator('tbody tr')).toHaveCount(2);
});

test('Delete opens its confirmation when pressed while the figures refresh and the delivery drawer closes', async ({
  page,
}) => {
  // The page's clock stops at the moment that matters, so the drawer finishes closing between the press and the
  // release of Delete in every run, not once in a while.
  await page.clock.install();
  // Short enough that Delete and the delivery the drawer was opened from are never in view together.
  await page.setViewportSize({ width: 1280, height: 560 });
  await signIn(page);
  await page.goto('/company-settings');
  const endpoints = page.getByRole('table', { name: 'Endpoints' });
  await expect(endpoints.locator('tbody tr')).toHaveCount(2);
  const url = receiverUrl.replace(/\/hooks$/, '/busy-hooks');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
  await dialog.getByLabel('Endpoint URL').fill(url);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = endpoints.locator('tbody tr', { hasText: url });
  await row.getByRole('button', { name: 'Details' }).click();
  const detail = page.getByLabel(`Endpoint ${url}`);
  await detail.getByRole('button', { name: 'Send test event' }).click();
  await expect(row).toContainText('100 % (1)');
  await detail.getByRole('table', { name: 'Delivery log' }).locator('tbody tr').first().click();
  const drawer = page.getByRole('region', { name: 'Delivery attempt 1' });
  await expect(drawer).toBeVisible();

  // The endpoints' figures are held on their way, then come back changed while the button is pressed.
  let asked = 0;
  let answered = false;
  let answer = () => {};
  const held = new Promise<void>((resolve) => {
    answer = resolve;
  });
  await page.route(/\/webhook_endpoint$/, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    asked += 1;
    await held;
    const response = await route.fetch();
    const list = (await response.json()) as { url: string; health: { pending: number } }[];
    for (const endpoint of list) if (endpoint.url === url) endpoint.health.pending = 3;
    await route.fulfill({ response, json: list });
    answered = true;
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await row.getByRole('button', { name: 'Delete' }).boundingBox();
  if (!box) throw new Error('Delete is not shown');
  await page.clock.pauseAt(new Date((await page.evaluate(() => Date.now())) + 1000));

  await drawer.getByRole('button', { name: 'Replay' }).click();
  await expect(page.getByText('1 delivery queued')).toBeVisible();
  await expect.poll(() => asked).toBeGreaterThan(0);
  // The drawer is on its way out (still drawn, no longer taking the pointer): the press lands on Delete.
  const aim = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  await expect
    .poll(() =>
      page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent, aim),
    )
    .toBe('Delete');
  await page.mouse.move(aim.x, aim.y);
  await page.mouse.down();
  answer();
  await expect.poll(() => answered).toBe(true);
  // Time runs on: the figures are shown and the drawer finishes closing, the button still pressed.
  await page.clock.runFor(2000);
  await expect(row).toContainText('3 waiting');
  await page.mouse.up();
  await page.clock.resume();

  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(`Delete the endpoint ${url}?`);
  await page.unroute(/\/webhook_endpoint$/);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(endpoints.locator('tbody tr')).toHaveCount(2);
});

test('the console in Turkish, dark theme', async ({ page }) => {
  await signIn(page);
  await page.evaluate(() => {
    localStorage.setItem('language', 'tr');
    localStorage.setItem('theme', 'dark');
  });
  await page.goto('/company-settings');
  await expect(page.getByRole('heading', { level: 2, name: 'Şirket ayarları' })).toBeVisible();
  await expect(page.getByRole('tab', { name: "Webhook'lar" })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Olaylar' })).toContainText('Profil durumu değişti');
  const endpoints = page.getByRole('table', { name: 'Uç noktalar' });
  await endpoints.locator('tbody tr').first().getByRole('button', { name: 'Ayrıntılar' }).click();
  await expect(page.getByRole('table', { name: 'Gönderim kaydı' }).locator('tbody tr')).toHaveCount(10);
  await expect(page.getByRole('button', { name: 'Daha fazla yükle' })).toBeVisible();
  await page.getByRole('button', { name: 'Uç nokta ekle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Uç nokta ekle' });
  await dialog.getByRole('button', { name: 'Kaydet' }).click();
  await expect(dialog.getByText('Bu alan boş bırakılamaz.')).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/webhooks-tr-dark.png`, fullPage: true });
});
