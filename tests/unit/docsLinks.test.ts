/**
 * The documentation's relative links resolve: every `[text](path)` and `![alt](path)` in README.md,
 * CHANGELOG.md and docs/**\/*.md names a file or folder of the repository, and a `#fragment` names a heading
 * of the file it points to (GitHub's anchors). A moved or renamed page fails here, not in a reader's browser.
 * Also: the README reads as a guide, not as a diary of how the product was built.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** Every page, but the decision records' template, whose links are placeholders. */
const FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'CHANGELOG.md'),
  ...markdownFiles(join(ROOT, 'docs')),
].filter((file) => !file.endsWith('0000-template.md'));

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = anchorOf(heading ?? '');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

interface Link {
  file: string;
  target: string;
}

function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  for (const [, target] of prose(readFileSync(file, 'utf8')).matchAll(
    /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g,
  )) {
    if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
    links.push({ file, target });
  }
  return links;
}

/** Why a link does not resolve, or null when it does. */
function problem({ file, target }: Link): string | null {
  const [path = '', fragment] = target.split('#');
  const resolved = path === '' ? file : resolve(dirname(file), decodeURI(path));
  if (!resolved.startsWith(ROOT)) return 'points outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (fragment && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchors(resolved).has(fragment))
    return `no heading #${fragment}`;
  return null;
}

describe('the documentation', () => {
  it('finds the pages to check', () => {
    expect(FILES.map((file) => relative(ROOT, file))).toEqual(
      expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/architecture.md', 'docs/users/agent.md']),
    );
  });

  it('has no relative link that leads nowhere', () => {
    const broken = FILES.flatMap(relativeLinks)
      .map((link) => ({ link, why: problem(link) }))
      .filter(({ why }) => why !== null)
      .map(({ link, why }) => `${relative(ROOT, link.file)}: ${link.target} (${why})`);
    expect(broken).toEqual([]);
  });

  it('shows in the user guides only screenshots that exist, and every screenshot is shown', () => {
    const guides = markdownFiles(join(ROOT, 'docs/users'));
    const shown = new Set(
      guides.flatMap((guide) =>
        [...readFileSync(guide, 'utf8').matchAll(/!\[[^\]]*\]\((screens\/[^)\s]+\.png)\)/g)].map((m) => m[1]),
      ),
    );
    expect(shown.size).toBeGreaterThan(0);
    const files = readdirSync(join(ROOT, 'docs/users/screens'))
      .filter((name) => name.endsWith('.png'))
      .map((name) => `screens/${name}`);
    expect([...shown].sort()).toEqual(files.sort());
  });

  it('keeps the README a guide: no work diary, no issue or record numbers', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme.match(/[Ii]ssues? [0-9]+|records? 0[0-9]{3}|[Ss]ession [0-9]+/g)).toBeNull();
    // The two commands CI and newcomers rely on, exactly as written.
    expect(readme).toContain('npm install && npm start');
    expect(readme).toMatch(/^npm test {2,}#/m);
  });
});

describe('anchorOf', () => {
  it('makes the anchors GitHub makes', () => {
    expect(anchorOf('Configuration in outline')).toBe('configuration-in-outline');
    expect(anchorOf('Where to change …')).toBe('where-to-change-');
    expect(anchorOf('Text messages (SMS)')).toBe('text-messages-sms');
    expect(anchorOf('The path of one event: a customer joins a video call')).toBe(
      'the-path-of-one-event-a-customer-joins-a-video-call',
    );
  });
});
