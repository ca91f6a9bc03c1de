/**
 * Preload on intent: a pointer resting on, or the focus reaching, a link to a profile, a document,
 * a call or a list page starts that route's chunks and first queries (routeTable.ts), so the click that
 * follows only waits for what is left. A press on such a link (the primary button, no key that opens it
 * elsewhere) starts them at once: the click comes only when the button goes up, and its own navigation renders
 * the loading bar before its requests would go out. One listener on the document covers every link, also the
 * ones of screens added later. Never for a route the account may not open (the guards' own check).
 */
import { isIntentTarget, preloadRoute } from './preload';

/** A pointer passing over a link on its way elsewhere does not preload it. */
export const INTENT_DELAY_MS = 80;
/** At most this many preloads run at once; more intents wait for the next hover. */
export const MAX_PRELOADS = 2;

/** The same-origin path and query a link points at, or null (other sites, new tabs, downloads). */
function linkTarget(target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  const link = target.closest('a[href]');
  if (!(link instanceof HTMLAnchorElement) || link.target === '_blank' || link.hasAttribute('download')) {
    return null;
  }
  const url = new URL(link.href, window.location.href);
  if (url.origin !== window.location.origin) return null;
  return `${url.pathname}${url.search}`;
}

/** Listens on `root` for hover and focus on links; returns the function that stops it. */
export function installIntentPreload(root: Document): () => void {
  let running = 0;
  const done = new Set<string>();
  let waiting: { href: string; timer: ReturnType<typeof setTimeout> } | null = null;

  const cancel = () => {
    if (waiting) clearTimeout(waiting.timer);
    waiting = null;
  };
  const onIntent = (event: Event) => {
    const href = linkTarget(event.target);
    if (!href || href === waiting?.href) return;
    cancel();
    if (href === `${window.location.pathname}${window.location.search}` || done.has(href)) return;
    // The permission is checked when the timer fires: the account may have changed meanwhile.
    waiting = {
      href,
      timer: setTimeout(() => {
        waiting = null;
        if (running >= MAX_PRELOADS || !isIntentTarget(href)) return;
        running += 1;
        done.add(href);
        void preloadRoute(href).finally(() => {
          running -= 1;
          // Later intents start it again: a cached answer goes stale (the cache decides what to fetch).
          setTimeout(() => done.delete(href), 10_000);
        });
      }, INTENT_DELAY_MS),
    };
  };
  const onPress = (event: PointerEvent) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const href = linkTarget(event.target);
    if (!href || href === `${window.location.pathname}${window.location.search}`) return;
    if (href === waiting?.href) cancel();
    if (!isIntentTarget(href)) return;
    done.add(href);
    // Not counted against MAX_PRELOADS: a press is followed by its click, which would start the same.
    void preloadRoute(href).finally(() => {
      setTimeout(() => done.delete(href), 10_000);
    });
  };
  const onLeave = (event: Event) => {
    const href = linkTarget(event.target);
    const into = linkTarget((event as FocusEvent | PointerEvent).relatedTarget);
    if (href && href === waiting?.href && into !== href) cancel();
  };

  root.addEventListener('pointerover', onIntent, { passive: true });
  root.addEventListener('focusin', onIntent);
  root.addEventListener('pointerout', onLeave, { passive: true });
  root.addEventListener('focusout', onLeave);
  root.addEventListener('pointerdown', onPress, { passive: true, capture: true });
  return () => {
    cancel();
    root.removeEventListener('pointerover', onIntent);
    root.removeEventListener('focusin', onIntent);
    root.removeEventListener('pointerout', onLeave);
    root.removeEventListener('focusout', onLeave);
    root.removeEventListener('pointerdown', onPress, { capture: true });
  };
}
