import { describe, expect, it } from 'vitest';
import { iconChunkName } from '../../../build/iconChunks';

const path = (size: 16 | 20, name: string) =>
  `/work/node_modules/@blueprintjs/icons/lib/esm/generated/${size}px/paths/${name}.js`;
const list = (file: string) => `/work/src/ui/${file}`;

describe('iconChunkName (one chunk per icon list and size)', () => {
  it('names the chunk after the list that imports the icon, per size', () => {
    expect(iconChunkName(path(16, 'cog'), [list('app/shellIcons.ts')])).toBe('icons16-app-shellIcons');
    expect(iconChunkName(path(20, 'cog'), [list('app/shellIcons.ts')])).toBe('icons20-app-shellIcons');
  });

  it('puts an icon of the public list with it, whatever other list also names it', () => {
    const lists = [list('screens/review/icons.ts'), list('icons.ts'), list('app/shellIcons.ts')];
    expect(iconChunkName(path(16, 'tick'), lists)).toBe('icons16-public');
  });

  it('otherwise puts a shared icon with the first list by path, the same on every build', () => {
    const lists = [list('screens/entities/icons.ts'), list('screens/company/icons.ts')];
    expect(iconChunkName(path(16, 'office'), lists)).toBe('icons16-screens-company-icons');
    expect(iconChunkName(path(16, 'office'), [...lists].reverse())).toBe('icons16-screens-company-icons');
  });

  it('leaves alone an icon no list imports, and every other module', () => {
    expect(iconChunkName(path(16, 'airplane'), [])).toBeNull();
    expect(
      iconChunkName(path(16, 'airplane'), ['/work/node_modules/@blueprintjs/icons/lib/esm/allPaths.js']),
    ).toBeNull();
    expect(iconChunkName('/work/src/ui/app/shellIcons.ts', [])).toBeNull();
    expect(
      iconChunkName('/work/node_modules/@blueprintjs/core/lib/esm/components/icon/icon.js', []),
    ).toBeNull();
  });
});
