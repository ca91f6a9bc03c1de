/**
 * Splits Blueprint's stylesheet in three, so the sign-in page does not carry the styles of components only
 * later pages use:
 *   import 'virtual:blueprint-public.css'   everything else (the studio's entry: the sign-in page)
 *   import 'virtual:blueprint-pages.css'    rules whose every selector names a component of PAGES_ONLY or
 *                                           SHELL_ONLY, and at least one of PAGES_ONLY (dialogs, radios…:
 *                                           the sign-in's later steps, the other public pages, the shell)
 *   import 'virtual:blueprint-shell.css'    rules whose every selector names a shell-only component
 * Rules keep their order within each part; the parts load in that order.
 * Before the split, rules nothing in the studio can match go (see tidy), the same in every part.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { transform } from 'lightningcss';
import postcss from 'postcss';
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

/**
 * Components the sign-in page does not draw until a later step (a region's radios, the forced dialogs), and
 * that the other public pages and the shell use: they come with those, not with the studio's entry.
 */
export const PAGES_ONLY = [
  'control',
  'dialog',
  'overlay-backdrop',
  'file-upload',
  'code',
  'blockquote',
  'list',
  'progress-bar',
];

type Part = 'public' | 'pages' | 'shell';

const IDS: Record<string, Part> = {
  'virtual:blueprint-public.css': 'public',
  'virtual:blueprint-pages.css': 'pages',
  'virtual:blueprint-shell.css': 'shell',
};

interface SelectorComponent {
  type: string;
  name?: string;
}

const names = (prefixes: readonly string[], name: string) => {
  const bare = name.replace(/^bp\d+-/, '');
  return prefixes.some((prefix) => bare === prefix || bare.startsWith(`${prefix}-`));
};

const selectorNames = (prefixes: readonly string[]) => (selector: SelectorComponent[]) =>
  selector.some(
    (component) => component.type === 'class' && !!component.name && names(prefixes, component.name),
  );

const isShellSelector = selectorNames(SHELL_ONLY);
const isLaterSelector = selectorNames([...SHELL_ONLY, ...PAGES_ONLY]);

/** The part a rule goes to: the first that every one of its selectors allows. */
export function partOf(selectors: SelectorComponent[][]): Part {
  if (selectors.length === 0) return 'public';
  if (selectors.every(isShellSelector)) return 'shell';
  if (selectors.every(isLaterSelector)) return 'pages';
  return 'public';
}

/** A rule that only draws a glyph of Blueprint's icon font: `.bp6-icon-add::before { content: "\f109" }`. */
const GLYPH = /^\.bp\d+-icon-[a-z0-9-]+::?before$/;
/** Blueprint's attribute for a dark scheme; the studio marks it with the dark class on <body> (theme.ts). */
const SCHEME_ATTRIBUTE = /\[data-bp-color-scheme=dark\]/;

/**
 * Removes what no page of the studio can use, in a way that keeps the cascade of what remains:
 * - the icon font's glyphs (about 1,400 rules, twice): the studio draws its icons as SVG and ships no icon
 *   font, and Blueprint hides the glyph of every icon that holds its SVG;
 * - the selectors on `[data-bp-color-scheme=dark]`, each beside the same one on the dark class;
 * - a rule repeated word for word later in the same place (the stylesheet holds its icon part twice): the
 *   later copy wins wherever the earlier one would, so only the last is kept.
 */
export function tidy(css: string): string {
  const root = postcss.parse(css);
  root.walkRules((rule) => {
    const glyph =
      rule.selectors.every((selector) => GLYPH.test(selector)) &&
      rule.nodes.every((node) => node.type === 'decl' && node.prop === 'content');
    const selectors = rule.selectors.filter((selector) => !SCHEME_ATTRIBUTE.test(selector));
    if (glyph || selectors.length === 0) rule.remove();
    else if (selectors.length !== rule.selectors.length) rule.selectors = selectors;
  });
  const place = (node: postcss.Rule) => {
    let where = '';
    for (let parent = node.parent; parent && parent.type !== 'root'; parent = parent.parent)
      where +=
        parent.type === 'atrule'
          ? `@${(parent as postcss.AtRule).name} ${(parent as postcss.AtRule).params};`
          : '';
    return `${where}${node.selector}{${node.nodes.map(String).join(';')}}`;
  };
  const last = new Map<string, postcss.Rule>();
  root.walkRules((rule) => {
    last.set(place(rule), rule);
  });
  root.walkRules((rule) => {
    if (last.get(place(rule)) !== rule) rule.remove();
  });
  return root.toString();
}

function split(css: string, part: Part): string {
  const { code } = transform({
    filename: 'blueprint.css',
    code: Buffer.from(css),
    minify: false,
    visitor: {
      Rule: {
        style(rule) {
          const selectors = rule.value.selectors as unknown as SelectorComponent[][];
          // Returning nothing keeps the rule as it is; an empty list removes it.
          return partOf(selectors) === part ? undefined : [];
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
    source ??= tidy(readFileSync(require.resolve('@blueprintjs/core/lib/css/blueprint.css'), 'utf8'));
    return source;
  };
  return {
    name: 'blueprint-css-split',
    enforce: 'pre',
    resolveId(id) {
      return IDS[id] ? `\0${id}` : null;
    },
    load(id) {
      const part = id.startsWith('\0') ? IDS[id.slice(1)] : undefined;
      return part ? split(read(), part) : null;
    },
  };
}
