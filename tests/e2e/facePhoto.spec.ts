import { expect, test } from '@playwright/test';
import { signInToPhotoStep } from './support';

test('a denied camera says No permission to camera', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
  });
  await signInToPhotoStep(page);
  await expect(page.getByRole('alert')).toHaveText('No permission to camera');
  expect(await page.evaluate(() => localStorage.getItem('accounts'))).toBeNull();
});

test('a photo of someone else (the fake camera) is compared and refused', async ({ page }) => {
  await signInToPhotoStep(page);
  await expect(page.getByRole('button', { name: 'Take photo' })).toBeEnabled();
  await page.getByRole('button', { name: 'Take photo' }).click();
  await expect(page.getByRole('alert')).toHaveText('The photo does not match your sign-in photo. Try again.');
  expect(await page.evaluate(() => localStorage.getItem('accounts'))).toBeNull();
});
