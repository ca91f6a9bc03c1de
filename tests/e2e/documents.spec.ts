/** Documents: the viewer by keyboard, review, field override, archive and restore, upload, permissions. */
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { PNG } from 'pngjs';
import { DEMO, signIn } from './support';

/** A small solid-colour PNG page. */
function pngPage(rgb: [number, number, number], width = 320, height = 200): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) {
    image.data[i * 4] = rgb[0];
    image.data[i * 4 + 1] = rgb[1];
    image.data[i * 4 + 2] = rgb[2];
    image.data[i * 4 + 3] = 255;
  }
  return PNG.sync.write(image);
}

interface Setup {
  profileId: number;
  idDocument: number;
  bill: number;
}

async function apiToken(request: APIRequestContext): Promise<string> {
  const login = await request.post('/api/v1/login/', {
    data: { username: DEMO.agent.email, password: DEMO.agent.password },
  });
  expect(login.ok()).toBe(true);
  return ((await login.json()) as { access: string }).access;
}

/** A fresh profile with an identity card (two pages) and a utility bill, made through the API. */
async function freshProfile(request: APIRequestContext, name: string): Promise<Setup> {
  const token = await apiToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/v2/profile', {
    headers,
    data: { id_card_number: `DOC${Date.now()}${Math.floor(Math.random() * 1000)}`, name, gender: 'F' },
  });
  expect(created.status()).toBe(201);
  const profileId = ((await created.json()) as { id: number }).id;
  const types = (await (await request.get('/api/v2/documenttype', { headers })).json()) as {
    id: number;
    document_class: string;
  }[];
  const typeOf = (documentClass: string) => types.find((t) => t.document_class === documentClass)?.id ?? 0;
  const upload = async (type: number, pages: Buffer[]) => {
    const form = new FormData();
    form.append('profile', String(profileId));
    form.append('type', String(type));
    form.append('upload_source', 'sdk');
    pages.forEach((page, i) => {
      form.append('pages', new Blob([new Uint8Array(page)], { type: 'image/png' }), `page-${i + 1}.png`);
    });
    const answer = await request.post('/api/v2/document', { headers, multipart: form });
    expect(answer.status()).toBe(201);
    return ((await answer.json()) as { id: number }).id;
  };
  const idDocument = await upload(typeOf('ID'), [pngPage([30, 90, 160]), pngPage([160, 60, 40])]);
  const bill = await upload(typeOf('UB'), [pngPage([40, 140, 80])]);
  return { profileId, idDocument, bill };
}

const card = (page: Page, title: string) => page.getByRole('article', { name: title });

async function openDocuments(page: Page, profileId: number) {
  await page.goto(`/profile/${profileId}?tab=documents`);
  await expect(page.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();
}

test('open a document, zoom and page through the viewer by keyboard, approve, reject, override, archive', async ({
  page,
  request,
}) => {
  const setup = await freshProfile(request, 'Elif Belgeci');
  await signIn(page, DEMO.agent);
  await openDocuments(page, setup.profileId);

  // Grouped by class in their sort order (docs/product/entities.md): identity card before utility bill.
  await expect(page.locator('.studio-document-group-title')).toHaveText([
    'Identity card (1)',
    'Utility bill (1)',
  ]);
  const idCard = card(page, 'National identity card');
  const bill = card(page, 'Utility bill');
  await expect(bill).toBeVisible();

  // The viewer: opens on click; + zooms; ArrowRight and h move; Escape closes and gives the focus back.
  const firstPage = idCard.getByRole('button', { name: 'National identity card, page 1' });
  await firstPage.click();
  const viewer = page.getByRole('dialog', { name: /^Image viewer:/ });
  await expect(viewer).toBeVisible();
  await expect(viewer).toContainText('1 of 2 · National identity card, page 1');
  await page.keyboard.press('+');
  await page.keyboard.press('+');
  await expect(viewer.getByRole('button', { name: 'Actual size (0)' })).toHaveText('150%');
  await page.keyboard.press('ArrowRight');
  await expect(viewer).toContainText('2 of 2 · National identity card, page 2');
  await expect(viewer.getByRole('button', { name: 'Actual size (0)' })).toHaveText('100%');
  await page.keyboard.press('h');
  await expect(viewer).toContainText('1 of 2');
  await page.keyboard.press('l');
  await expect(viewer).toContainText('2 of 2');
  await expect(viewer.getByRole('link', { name: 'Open the original in a new tab' })).toHaveAttribute(
    'target',
    '_blank',
  );
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(firstPage).toBeFocused();

  // Approve the identity card.
  await idCard.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText('Document approved successfully')).toBeVisible();
  await expect(idCard.getByText('Approved', { exact: true })).toBeVisible();

  // Reject the bill: confirmation with a reason of at least 10 characters.
  await bill.getByRole('button', { name: 'Reject', exact: true }).click();
  const reject = page.getByRole('dialog', { name: 'Reject Utility bill?' });
  await reject.getByLabel('Reason').fill('too short');
  await reject.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(reject.getByText('Too short: at least 10 characters.')).toBeVisible();
  await reject.getByLabel('Reason').fill('The bill is not addressed to the customer.');
  await reject.getByRole('button', { name: 'Reject', exact: true }).click();
  await expect(page.getByText('Document rejected successfully')).toBeVisible();
  await expect(bill.getByText('Rejected: The bill is not addressed to the customer.')).toBeVisible();

  // Override a field, with the date rule first.
  await idCard.getByRole('button', { name: 'Override fields' }).click();
  const fields = page.getByRole('dialog', { name: 'Override fields' });
  await fields.getByLabel('Date of birth').fill('2999-01-01');
  await fields.getByRole('button', { name: 'Save' }).click();
  await expect(fields.getByText('The date cannot be in the future.')).toBeVisible();
  await fields.getByLabel('Date of birth').fill('1990-04-12');
  await fields.getByLabel('First name', { exact: true }).fill('Elif');
  await fields.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Operation completed successfully')).toBeVisible();
  await expect(fields).toBeHidden();
  const firstName = idCard.getByRole('row', { name: /^First name/ });
  await expect(firstName).toContainText('Elif');
  await expect(firstName).toContainText('Overridden');

  // Archive, find it in the archived view, restore.
  await idCard.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(page.getByText('Document archived successfully')).toBeVisible();
  await expect(idCard).toBeHidden();
  await page.getByRole('radio', { name: /^Archived/ }).click();
  await card(page, 'National identity card').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Document restored successfully')).toBeVisible();
  await expect(page.getByText('No archived documents')).toBeVisible();
  await page.getByRole('radio', { name: /^Active/ }).click();
  await expect(card(page, 'National identity card')).toBeVisible();

  // Every step is in the activity log.
  await expect(page.getByRole('list', { name: 'Logs' })).toContainText('restored');
});

test('upload a two-page document by drag and drop and file choice, then open and delete it', async ({
  page,
  request,
}) => {
  const setup = await freshProfile(request, 'Can Yükleyen');
  await signIn(page, DEMO.agent);
  await openDocuments(page, setup.profileId);

  await page.getByRole('button', { name: 'Upload', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload a document' });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(dialog.getByText('Choose the document type.')).toBeVisible();
  await expect(dialog.getByText('Add at least one page.')).toBeVisible();

  await dialog.getByLabel('Document type').selectOption({ label: 'Passport (Passport)' });
  // Page 1 by drag and drop, page 2 (and a file that is not a page) by the file choice.
  const dropped = await page.evaluateHandle(
    (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'passport-1.png', { type: 'image/png' }));
      return transfer;
    },
    pngPage([200, 180, 40]).toString('base64'),
  );
  await dialog.getByTestId('upload-dropzone').dispatchEvent('drop', { dataTransfer: dropped });
  await dialog.getByLabel('Choose files').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a page') },
    { name: 'passport-2.png', mimeType: 'image/png', buffer: pngPage([90, 40, 160]) },
  ]);
  await expect(dialog.getByText('notes.txt: not a JPEG, PNG, WebP or PDF file.')).toBeVisible();
  const pages = dialog.getByRole('list', { name: 'Pages to upload' });
  await expect(pages.getByRole('listitem')).toHaveCount(2);
  await expect(pages).toContainText('Page 1: passport-1.png');
  await expect(pages).toContainText('Page 2: passport-2.png');
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByText('Operation completed successfully')).toBeVisible();
  await expect(dialog).toBeHidden();

  const passport = card(page, 'Passport');
  await expect(passport.getByRole('list', { name: 'Pages of Passport' }).getByRole('button')).toHaveCount(2);
  await expect(passport).toContainText('Uploaded through the studio');

  // Its own page, then delete with confirmation.
  await passport.getByRole('link', { name: 'Passport' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Passport' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Delete Passport?');
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Document deleted successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Documents', exact: true })).toBeVisible();
  await expect(card(page, 'Passport')).toHaveCount(0);
});

test('a Restricted User sees "You do not have permission to perform this action"', async ({
  page,
  request,
}) => {
  const setup = await freshProfile(request, 'Kısıtlı Bakış');
  await signIn(page, DEMO.viewer);
  await openDocuments(page, setup.profileId);
  const idCard: Locator = card(page, 'National identity card');
  await idCard.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText('You do not have permission to perform this action')).toBeVisible();
  await expect(idCard.getByText('Pending review', { exact: true })).toBeVisible();
});
