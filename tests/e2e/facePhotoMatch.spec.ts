import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import { sampleFacePhoto } from '../../server/integrations/faceSamples';
import { signInToPhotoStep } from './support';

// Chromium's fake camera plays a Motion-JPEG file: here another photo of the user (sample face a2; their
// sign-in photo is a1).
const video = join(tmpdir(), 'idv-face-a2.mjpeg');
const frame = sampleFacePhoto('a2');
writeFileSync(video, Buffer.concat(Array.from({ length: 30 }, () => frame)));

test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${video}`],
  },
});

test('a camera that shows the user: the matching face photo signs in', async ({ page }) => {
  await signInToPhotoStep(page);
  await expect(page.getByRole('button', { name: 'Take photo' })).toBeEnabled();
  await page.waitForFunction(
    () => ((document.querySelector('video') as HTMLVideoElement | null)?.videoWidth ?? 0) > 0,
  );
  await page.getByRole('button', { name: 'Take photo' }).click();
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible({ timeout: 20_000 });
});
