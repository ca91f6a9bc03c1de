import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { partOf, tidy } from '../../../build/blueprintCss';

const cls = (...names: string[]) => names.map((name) => ({ type: 'class', name }));

describe('tidy (rules no studio page can use)', () => {
  it('drops the icon font glyphs and keeps every other icon rule', () => {
    const css =
      '.bp6-icon-add::before{content:"\\f109"}.bp6-icon-add::before{color:red}.bp6-icon{width:16px}';
    const out = tidy(css);
    expect(out).not.toContain('\\f109');
    expect(out).toContain('.bp6-icon-add::before{color:red}');
    expect(out).toContain('.bp6-icon{width:16px}');
  });

  it('drops the colour-scheme attribute beside the dark class, and a rule that only had it', () => {
    const out = tidy(
      '[data-bp-color-scheme=dark] .bp6-button,.bp6-dark .bp6-button{color:white}[data-bp-color-scheme=dark] .x{color:red}',
    );
    expect(out).toBe('.bp6-dark .bp6-button{color:white}');
  });

  it('keeps the last of two identical rules, so what lies between still loses to it', () => {
    const out = tidy('.a{color:red}.b{color:blue}.a{color:red}@media print{.a{color:red}}');
    expect(out).toBe('.b{color:blue}.a{color:red}@media print{.a{color:red}}');
  });

  it("leaves Blueprint's stylesheet without glyphs or scheme attributes", () => {
    const require = createRequire(import.meta.url);
    const out = tidy(readFileSync(require.resolve('@blueprintjs/core/lib/css/blueprint.css'), 'utf8'));
    expect(out).not.toMatch(/data-bp-color-scheme/);
    expect(out).not.toMatch(/\.bp6-icon-add::before\s*\{\s*content/);
    expect(out).toMatch(/\.bp6-dark\s*\{/);
  });
});

describe('partOf (the sign-in page, the later pages, the shell)', () => {
  it('keeps a rule any selector of which the sign-in page may draw', () => {
    expect(partOf([cls('bp6-button')])).toBe('public');
    expect(partOf([cls('bp6-dialog'), cls('bp6-button')])).toBe('public');
    expect(partOf([])).toBe('public');
  });

  it('moves rules of components the sign-in page never draws first', () => {
    expect(partOf([cls('bp6-dialog-header')])).toBe('pages');
    expect(partOf([cls('bp6-control', 'bp6-radio')])).toBe('pages');
    expect(partOf([cls('bp6-dialog'), cls('bp6-menu')])).toBe('pages');
    expect(partOf([cls('bp6-menu-item')])).toBe('shell');
  });
});
