/**
 * Preload on intent: a pointer resting on a link to a screen that preloads starts it after a short delay; a press
 * of the primary button starts it at once, before the click; a press that opens the link elsewhere, a link to where
 * the page already is, or a route the account may not open starts nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const table = vi.hoisted(() => ({
  preloadRoute: vi.fn((_href: string) => Promise.resolve()),
  isIntentTarget: vi.fn((href: string) => href.startsWith('/profile/')),
}));
vi.mock('../../src/ui/app/preload', () => table);

import { INTENT_DELAY_MS, installIntentPreload } from '../../src/ui/app/intent';

let stop: () => void = () => undefined;

function link(href: string): HTMLAnchorElement {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.textContent = 'Ayşe Yılmaz';
  document.body.append(anchor);
  return anchor;
}

const press = (target: Element, init: MouseEventInit = {}) =>
  target.dispatchEvent(new MouseEvent('pointerdown', { bubbles: true, button: 0, ...init }));

beforeEach(() => {
  vi.useFakeTimers();
  table.preloadRoute.mockClear();
  table.isIntentTarget.mockClear();
  window.history.replaceState(null, '', '/customers');
  stop = installIntentPreload(document);
});

afterEach(() => {
  stop();
  document.body.replaceChildren();
  vi.useRealTimers();
});

describe('preload on intent', () => {
  it('starts a hovered link only after the pointer rests on it', () => {
    const anchor = link('/profile/7');
    anchor.dispatchEvent(new MouseEvent('pointerover', { bubbles: true }));
    vi.advanceTimersByTime(INTENT_DELAY_MS - 1);
    expect(table.preloadRoute).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(table.preloadRoute).toHaveBeenCalledWith('/profile/7');
  });

  it('starts a pressed link at once, in the press itself', () => {
    const anchor = link('/profile/7');
    anchor.dispatchEvent(new MouseEvent('pointerover', { bubbles: true }));
    press(anchor);
    expect(table.preloadRoute).toHaveBeenCalledTimes(1);
    expect(table.preloadRoute).toHaveBeenCalledWith('/profile/7');
    // The hover's timer was for the same link: it does not start it a second time.
    vi.advanceTimersByTime(INTENT_DELAY_MS);
    expect(table.preloadRoute).toHaveBeenCalledTimes(1);
  });

  it('starts nothing for a press that opens the link elsewhere or is not the primary button', () => {
    const anchor = link('/profile/7');
    press(anchor, { ctrlKey: true });
    press(anchor, { metaKey: true });
    press(anchor, { shiftKey: true });
    press(anchor, { button: 1 });
    press(anchor, { button: 2 });
    expect(table.preloadRoute).not.toHaveBeenCalled();
  });

  it('starts nothing for the page it is on, another site, or a route that does not preload', () => {
    press(link('/customers'));
    press(link('https://example.com/profile/7'));
    press(link('/company-settings'));
    expect(table.isIntentTarget).toHaveBeenCalledWith('/company-settings');
    expect(table.preloadRoute).not.toHaveBeenCalled();
  });

  it('stops listening when it is stopped', () => {
    const anchor = link('/profile/7');
    stop();
    press(anchor);
    expect(table.preloadRoute).not.toHaveBeenCalled();
  });
});
