import { expect, test } from './cspGuard';
import { listedOperations, signIn } from './support';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

test('the API documentation lists every operation of the OpenAPI document, and "try it" succeeds', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  const document = (await (await page.request.get('/api/v2/openapi.json')).json()) as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  const tags = new Map<string, string[]>();
  const operations = Object.entries(document.paths).flatMap(([route, methods]) =>
    Object.entries(methods)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => {
        const name = `${method.toUpperCase()} ${route}`;
        for (const tag of operation.tags ?? ['default']) tags.set(tag, [...(tags.get(tag) ?? []), name]);
        return name;
      }),
  );
  expect(operations.length).toBeGreaterThan(60);

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'API documentation' }).click();
  await expect(page.getByRole('heading', { name: 'API documentation' })).toBeVisible();
  const listed = await listedOperations(page, tags);
  expect([...listed].sort()).toEqual([...operations].sort());

  // GET /country needs a signed-in caller: a 200 shows the account's token went along.
  await page.getByPlaceholder('Filter by tag or path').fill('/api/v2/country');
  await expect(page.locator('.opblock')).toHaveCount(1);
  const country = page.locator('.opblock', { has: page.locator('[data-path="/api/v2/country"]') });
  await country.locator('.opblock-summary-control').click();
  await expect(country.locator('.opblock-body')).toBeVisible();
  await country.getByRole('button', { name: 'Try it out' }).click();
  await country.getByRole('button', { name: 'Execute' }).click();
  await expect(country.locator('.live-responses-table tbody .response-col_status').first()).toHaveText('200');
  await expect(country.locator('.live-responses-table')).toContainText('TR');
});
