/**
 * Splits Blueprint's stylesheet in two, so the public pages (sign-in, password reset) do not carry the styles
 * of components only the signed-in shell uses:
 *   import 'virtual:blueprint-public.css'   everything else (the studio's entry)
 *   import 'virtual:blueprint-shell.css'    rules whose every selector names a shell-only component
 * Rules keep their order within each half; the shell half loads after the public one.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transform } from 'lightningcss';
import type { Plugin } from 'vite';

/** Components of Blueprint that no public page uses (class `bp6-<name>` or `bp6-<name>-…`). */
export const SHELL_ONLY = [
  'navbar',
  'menu',
  'submenu',
  'context-menu',
  'popover',
  'popover-content',
  'tooltip',
  'tab',
  'tabs',
  'tab-list',
  'tab-panel',
  'tree',
  'html-table',
  'tag-input',
  'slider',
  'numeric-input',
  'file-input',
  'breadcrumb',
  'breadcrumbs',
  'collapse',
  'overflow-list',
  'panel-stack',
  'panel-stack2',
  // progress-bar is public: the password strength on sign-up, reset and invitation (issue 27).
  'segmented-control',
  'section',
  'entity-title',
  'editable-text',
  'drawer',
  'multistep-dialog',
  'hotkey',
  'hotkey-column',
  'hotkey-dialog',
  'card-list',
  'skeleton',
  'alert',
  'button-group',
  'control-group',
  'tag',
  'compound-tag',
  'key',
  'key-combo',
  'divider',
  'text-area',
];

const PUBLIC_ID = 'virtual:blueprint-public.css';
const SHELL_ID = 'virtual:blueprint-shell.css';

interface SelectorComponent {
  type: string;
  name?: string;
}

const isShellClass = (name: string) => {
  const bare = name.replace(/^bp\d+-/, '');
  return SHELL_ONLY.some((prefix) => bare === prefix || bare.startsWith(`${prefix}-`));
};

const isShellSelector = (selector: SelectorComponent[]) =>
  selector.some(
    (component) => component.type === 'class' && !!component.name && isShellClass(component.name),
  );

function split(css: string, keepShell: boolean): string {
  const { code } = transform({
    filename: 'blueprint.css',
    code: Buffer.from(css),
    minify: false,
    visitor: {
      Rule: {
        style(rule) {
          const selectors = rule.value.selectors as unknown as SelectorComponent[][];
          const shell = selectors.length > 0 && selectors.every(isShellSelector);
          // Returning nothing keeps the rule as it is; an empty list removes it.
          return shell === keepShell ? undefined : [];
        },
      },
    },
  });
  return code.toString();
}

export function blueprintCssSplit(): Plugin {
  const require = createRequire(import.meta.url);
  let source: string | null = null;
  const read = () => {
    source ??= readFileSync(require.resolve('@blueprintjs/core/lib/css/blueprint.css'), 'utf8');
    return source;
  };
  return {
    name: 'blueprint-css-split',
    enforce: 'pre',
    resolveId(id) {
      if (id === PUBLIC_ID || id === SHELL_ID) return `\0${id}`;
      return null;
    },
    load(id) {
      if (id === `\0${PUBLIC_ID}`) return split(read(), false);
      if (id === `\0${SHELL_ID}`) return split(read(), true);
      return null;
    },
  };
}
