import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { signIn } from './support';

/** A phone's screen: the customer's page must be usable on it. */
export const PHONE = { width: 375, height: 812 };

/** Nothing wider than the screen: no sideways scrolling on a phone. */
export const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** Browser contexts of one test, each with Chromium's fake camera; closed by `closeAll`. */
export class Contexts {
  private readonly open: BrowserContext[] = [];
  constructor(private readonly origin = baseURL) {}

  async page(browser: Browser): Promise<Page> {
    const context = await browser.newContext({
      baseURL: this.origin,
      permissions: ['camera', 'microphone'],
      locale: 'en-US',
    });
    this.open.push(context);
    return context.newPage();
  }

  async closeAll() {
    for (const context of this.open.splice(0)) await context.close();
  }
}

export const availability = (page: Page) => page.getByRole('button', { name: /^Availability:/ });

/** Signs in on the page and goes Online from the shell. */
export async function goOnline(page: Page, who: { email: string; password: string }): Promise<Page> {
  await signIn(page, who);
  await page.goto('/calls');
  const status = availability(page);
  await expect(status).toHaveAccessibleName(/Offline|Online|Break|Meeting|Education/);
  if (!(await status.getAttribute('aria-label'))?.endsWith('Online')) {
    await status.click();
    await page.getByRole('menuitemradio', { name: 'Online' }).click();
  }
  await expect(status).toHaveAccessibleName('Availability: Online');
  return page;
}

/** The join link of a profile, made from its Video Calls tab (the page returns to /calls). */
export async function joinLink(page: Page, profile: number): Promise<string> {
  await page.goto(`/profile/${profile}?tab=videoCalls`);
  await page.getByRole('button', { name: 'Create a join link' }).click();
  const link = page.getByLabel('Customer join link');
  await expect(link).toHaveValue(/customer\.html\?token=/);
  const value = await link.inputValue();
  await page.goto('/calls');
  return value;
}

/** The join page's button after the device check, in either language. */
export const joinButton = (customer: Page) =>
  customer.getByRole('button', { name: /^(Join the call|Görüşmeye katıl)$/ });

/** The join page's consent button, in either language. */
export const agreeButton = (customer: Page) =>
  customer.getByRole('button', { name: /^(I agree|Onaylıyorum)$/ });

/**
 * The customer opens the join link, agrees to the recording (the default procedure asks for consent), passes the
 * device check with the default camera and joins the queue.
 */
export async function joinQueue(customer: Page, link: string): Promise<void> {
  await customer.goto(link);
  await agreeButton(customer).click();
  await joinButton(customer).click();
}

/** E2E_TIME_SCALE=3 stretches the waits for video on a loaded machine (local runs beside other work). */
const VIDEO_TIMEOUT = 20_000 * Number(process.env.E2E_TIME_SCALE ?? 1);

/** True once the video element shows frames that move. */
export async function playing(page: Page, label: string): Promise<void> {
  const video = page.getByLabel(label, { exact: true });
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && v.currentTime > 0), {
      timeout: VIDEO_TIMEOUT,
    })
    .toBe(true);
}

/** The agent answers; both sides see each other. */
export async function answerAndTalk(agent: Page, customer: Page, profile: number) {
  await agent.getByRole('button', { name: 'Answer', exact: true }).click();
  await expect(agent).toHaveURL(new RegExp(`/call/${profile}/[^/]+/\\d+$`));
  await playing(agent, "Customer's video");
  await playing(customer, "The agent's video");
  await expect(agent.getByText('Recording', { exact: true })).toBeVisible();
  // The address names the call's room once the answer has named it (not the placeholder of the answering).
  await expect(agent).toHaveURL(new RegExp(`/call/${profile}/[0-9a-f-]{36}/\\d+$`));
}

/** Hangs up and closes the call with a status. */
export async function endWithStatus(agent: Page, status: string) {
  await agent.getByRole('button', { name: 'Hang up' }).click();
  await expect(agent.getByRole('heading', { name: 'How did the call end?' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(agent.getByRole('button', { name: 'Save status' })).toBeDisabled();
  await agent.getByRole('radio', { name: status, exact: true }).check({ force: true });
  await agent.getByRole('button', { name: 'Save status' }).click();
}
