import { Classes } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { storedTheme, storeTheme, type Theme } from '../../services/theme';

/** Puts Blueprint's dark class on <body>, so portals (menus, dialogs, toasts) follow the theme. */
export function applyTheme(theme: Theme): void {
  document.body.classList.toggle(Classes.DARK, theme === 'dark');
}

export function useTheme(): [Theme, (theme: Theme) => void] {
  const [theme, setTheme] = useState<Theme>(() => storedTheme());
  useEffect(() => applyTheme(theme), [theme]);
  return [
    theme,
    (next) => {
      storeTheme(next);
      setTheme(next);
    },
  ];
}
