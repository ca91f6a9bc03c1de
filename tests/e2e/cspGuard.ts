/**
 * Playwright's `test` with a Content-Security-Policy guard: every page of the test, in its own
 * context and in contexts the test opens itself (a customer's browser in a call), reports CSP violations
 * (`securitypolicyviolation` events and the browser's "Refused to …" console errors), and the test fails
 * when there was any. Specs that exercise the studio under the server's headers import `test` from here.
 */
import { type BrowserContext, test as base, expect } from '@playwright/test';

const MARK = '[csp-violation]';

async function guard(context: BrowserContext, violations: string[]): Promise<void> {
  context.on('console', (message) => {
    const text = message.text();
    if (text.startsWith(MARK)) violations.push(text.slice(MARK.length + 1));
    else if (message.type() === 'error' && /Content Security Policy/i.test(text)) violations.push(text);
  });
  await context.addInitScript((mark) => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.warn(
        `${mark} ${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} on ${event.documentURI}`,
      );
    });
  }, MARK);
}

export const test = base.extend<{ cspGuard: undefined }>({
  cspGuard: [
    async ({ context, browser }, use) => {
      const violations: string[] = [];
      await guard(context, violations);
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const created = await newContext(...args);
        await guard(created, violations);
        return created;
      };
      await use(undefined);
      browser.newContext = newContext;
      expect([...new Set(violations)], 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
