import { describe, expect, it, vi } from 'vitest';

/**
 * preload.ts reaches the route table through the loader the app provides, so there is no import circle
 * between the table, which knows every screen, and the screens, layouts and navigation that preload routes.
 */
describe('the route table behind preload.ts', () => {
  it('is loaded on first use through the provided loader, then answers intents at once', async () => {
    vi.resetModules();
    const preload = await import('../../src/ui/app/preload');
    const preloadRoute = vi.fn(() => Promise.resolve());
    const isIntentTarget = vi.fn((href: string) => href.startsWith('/profile/'));
    let release: () => void = () => undefined;
    const loaded = new Promise<void>((resolve) => {
      release = resolve;
    });
    const load = vi.fn(() => loaded.then(() => ({ preloadRoute, isIntentTarget })));

    // Nothing provided yet: a preload does nothing and never rejects.
    await expect(preload.preloadRoute('/customers')).resolves.toBeUndefined();

    preload.provideRouteTable(load);
    // Before the table is in no link is an intent, and asking starts its load.
    expect(preload.isIntentTarget('/profile/3')).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);
    expect(isIntentTarget).not.toHaveBeenCalled();

    const started = preload.preloadRoute('/profile/3', { chunksOnly: true });
    release();
    await started;
    expect(preloadRoute).toHaveBeenCalledWith('/profile/3', { chunksOnly: true });

    // Loaded: the answers come from the table, synchronously, and it is not loaded again.
    const loads = load.mock.calls.length;
    expect(preload.isIntentTarget('/profile/3')).toBe(true);
    expect(preload.isIntentTarget('/dashboard')).toBe(false);
    await preload.preloadRoute('/customers');
    expect(preloadRoute).toHaveBeenLastCalledWith('/customers', undefined);
    expect(load).toHaveBeenCalledTimes(loads);

    // Loaded: a preload starts in the caller's own task (a click's requests go out before React renders).
    void preload.preloadRoute('/profile/4');
    expect(preloadRoute).toHaveBeenLastCalledWith('/profile/4', undefined);
  });

  it('a table that fails to load leaves preloads resolved, and the next use tries again', async () => {
    vi.resetModules();
    const preload = await import('../../src/ui/app/preload');
    const preloadRoute = vi.fn(() => Promise.resolve());
    const load = vi
      .fn<() => Promise<{ preloadRoute: typeof preloadRoute; isIntentTarget: () => boolean }>>()
      .mockRejectedValueOnce(new Error('chunk failed'))
      .mockResolvedValue({ preloadRoute, isIntentTarget: () => true });
    preload.provideRouteTable(load);

    await expect(preload.preloadRoute('/calls')).resolves.toBeUndefined();
    expect(preloadRoute).not.toHaveBeenCalled();
    await preload.preloadRoute('/calls');
    expect(load).toHaveBeenCalledTimes(2);
    expect(preloadRoute).toHaveBeenCalledWith('/calls', undefined);
  });
});
