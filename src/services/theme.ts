/** Light or dark theme: the stored choice, else the system preference; applied as Blueprint's dark class. */
export type Theme = 'light' | 'dark';
export const THEME_KEY = 'theme';

export function storedTheme(): Theme {
  try {
    const stored = globalThis.localStorage?.getItem(THEME_KEY);
    if (stored === 'light' || stored === 'dark') return stored;
  } catch {
    // Fall through to the system preference.
  }
  return globalThis.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function storeTheme(theme: Theme): void {
  try {
    globalThis.localStorage?.setItem(THEME_KEY, theme);
  } catch {
    // Not remembered; still applied to this tab.
  }
}
