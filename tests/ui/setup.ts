import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, configure } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, vi } from 'vitest';
import { startI18n } from '../../src/services/i18n';
import { queryClient } from '../../src/ui/app/queryClient';
import { installIconLoader } from '../../src/ui/icons';

// Blueprint's toaster renders into a React root of its own whose timers outlive a test file (and then
// find no window): the component tests record messages instead; the end-to-end tests show real toasts.
vi.mock('../../src/ui/toaster', () => ({ showSuccess: vi.fn(), showError: vi.fn() }));

// jsdom cannot load another document: following a link out of the studio (the API documentation, a file)
// makes it report "Not implemented: navigation to another Document" on the console, which reads like a
// failure. The tests check such links by their address; every other jsdom error still goes through.
type JsdomConsole = { emit(event: string, ...args: unknown[]): boolean };
const jsdomConsole = (window as unknown as { _virtualConsole?: JsdomConsole })._virtualConsole;
if (jsdomConsole) {
  const emit = jsdomConsole.emit.bind(jsdomConsole);
  jsdomConsole.emit = (event, ...args) => {
    const message = args[0] instanceof Error ? args[0].message : '';
    if (event === 'jsdomError' && message.startsWith('Not implemented: navigation to another Document'))
      return false;
    return emit(event, ...args);
  };
}

// Lazy screens and language switches take seconds on a loaded 2-core CI machine.
configure({ asyncUtilTimeout: 15_000 });

const localesDir = join(import.meta.dirname, '../../locales');

/** Keys the views asked for that no resource has: a view that would render a raw key. */
export const missingKeys: string[] = [];

await startI18n({
  language: 'en-US',
  load: async (language, namespace) =>
    JSON.parse(readFileSync(join(localesDir, language, `${namespace}.json`), 'utf8')) as Record<
      string,
      unknown
    >,
});
i18next.options.saveMissing = true;
i18next.on('missingKey', (_languages, namespace, key) => missingKeys.push(`${namespace}:${key}`));
installIconLoader();

afterEach(() => {
  cleanup();
  // Server data cached by one test must not answer the next.
  queryClient.clear();
  localStorage.clear();
});
