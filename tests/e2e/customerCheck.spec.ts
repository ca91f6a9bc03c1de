/**
 * The customer's side before joining, on a 375 px wide phone screen in both languages: the
 * consent (asked by the default procedure), then the device check (preview, camera and microphone, light and
 * sound levels); then the queue. The consent is stored with the call.
 */
import { expect, test } from '@playwright/test';
import { agreeButton, Contexts, fitsWidth, goOnline, joinButton, joinLink, PHONE } from './callSupport';
import { DEMO } from './support';

test('a phone: preview, devices and levels in both languages; another microphone; then the queue', async ({
  browser,
}, info) => {
  const contexts = new Contexts();
  try {
    const agent = await goOnline(await contexts.page(browser), DEMO.agent);
    const link = await joinLink(agent, 3);
    const customer = await contexts.page(browser);
    await customer.setViewportSize(PHONE);
    await customer.goto(link);

    // Consent first: the camera starts only after it. "I do not agree" ends nothing for good.
    await expect(customer.getByRole('heading', { name: 'Before the call: your consent' })).toBeVisible();
    await expect(customer.getByTestId('consent-text')).toContainText('recorded');
    expect(await fitsWidth(customer)).toBe(true);
    await customer.screenshot({ path: info.outputPath('consent-en-US-light.png'), fullPage: true });
    await customer.getByRole('button', { name: 'I do not agree' }).click();
    await expect(customer.getByRole('heading', { name: 'No call without your consent' })).toBeVisible();
    await customer.getByRole('button', { name: 'Read the text again' }).click();
    await customer.locator('.customer-header .customer-link').click();
    await expect(customer.getByRole('heading', { name: 'Görüşmeden önce: onayınız' })).toBeVisible();
    await customer.emulateMedia({ colorScheme: 'dark' });
    await customer.screenshot({ path: info.outputPath('consent-tr-dark.png'), fullPage: true });
    await customer.emulateMedia({ colorScheme: 'light' });
    await customer.locator('.customer-header .customer-link').click();
    await agreeButton(customer).click();

    await expect(customer.getByRole('heading', { name: 'Check your camera and microphone' })).toBeVisible();
    const preview = customer.getByLabel('Your camera', { exact: true });
    await expect
      .poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && v.currentTime > 0))
      .toBe(true);
    const camera = customer.getByLabel('Camera', { exact: true });
    const microphone = customer.getByLabel('Microphone', { exact: true });
    await expect(camera.locator('option')).not.toHaveCount(0);
    await expect(microphone.locator('option').first()).not.toHaveText('…');
    // Chromium's fake camera shows a bright picture.
    await expect(customer.getByTestId('light-hint')).toHaveText('Your picture is bright enough.');
    // Sound is measured once the page was used (browsers hold audio until then).
    await customer.getByRole('heading', { name: 'Check your camera and microphone' }).click();
    await expect(customer.getByTestId('sound-hint')).toHaveText(
      /^(We can hear you\.|We cannot hear you yet)/,
    );
    expect(await fitsWidth(customer)).toBe(true);

    // Another microphone: the camera opens again with it, and the choice shows.
    const options = await microphone
      .locator('option')
      .evaluateAll((all) => all.map((o) => (o as HTMLOptionElement).value));
    const other = options.find((value) => value !== '' && value !== (options[0] ?? ''));
    if (other) {
      await microphone.selectOption(other);
      await expect(microphone).toHaveValue(other);
      await expect
        .poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && v.currentTime > 0))
        .toBe(true);
    }

    for (const lang of ['en-US', 'tr'] as const) {
      if (lang === 'tr') {
        await customer.locator('.customer-header .customer-link').click();
        await expect(
          customer.getByRole('heading', { name: 'Kameranızı ve mikrofonunuzu kontrol edin' }),
        ).toBeVisible();
        await expect(customer.getByTestId('light-hint')).toHaveText('Görüntünüz yeterince aydınlık.');
        await expect(customer.getByLabel('Mikrofon', { exact: true })).toBeVisible();
        expect(await fitsWidth(customer)).toBe(true);
      }
      for (const theme of ['light', 'dark'] as const) {
        await customer.emulateMedia({ colorScheme: theme });
        await customer.screenshot({
          path: info.outputPath(`device-check-${lang}-${theme}.png`),
          fullPage: true,
        });
      }
    }

    await joinButton(customer).click();
    await expect(customer.getByTestId('queue-position')).toBeVisible();
    await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  } finally {
    await contexts.closeAll();
  }
});
