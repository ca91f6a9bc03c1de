import { describe, expect, it } from 'vitest';
import { signInModules, staticClosure } from '../../../build/signInChunk';

/** A module graph: each module with the modules it imports statically. */
const graph: Record<string, string[]> = {
  '/w/src/main.tsx': ['/w/node_modules/react/index.js', '/w/node_modules/@blueprintjs/core/lib/esm/index.js'],
  '/w/src/customer/main.tsx': ['/w/node_modules/react/index.js', '/w/node_modules/xstate/dist/xstate.esm.js'],
  '/w/src/ui/screens/auth/LoginScreen.tsx': [
    '/w/node_modules/react/index.js',
    '/w/node_modules/xstate/dist/xstate.esm.js',
    '/w/node_modules/ky/distribution/index.js',
    '/w/src/ui/screens/auth/AuthLayout.tsx',
    '/w/node_modules/@blueprintjs/core/lib/esm/index.js',
  ],
  '/w/node_modules/@blueprintjs/core/lib/esm/index.js': [
    '/w/node_modules/@blueprintjs/core/lib/esm/components/forms/inputGroup.js',
    '/w/node_modules/@blueprintjs/core/lib/esm/components/menu/menu.js',
  ],
};
const info = (id: string) => ({ importedIds: graph[id] ?? [] });
const entries = ['/w/src/main.tsx', '/w/src/customer/main.tsx'];

describe('the sign-in chunk', () => {
  it('walks static imports once, the module itself included', () => {
    expect([...staticClosure('/w/src/customer/main.tsx', info)].sort()).toEqual([
      '/w/node_modules/react/index.js',
      '/w/node_modules/xstate/dist/xstate.esm.js',
      '/w/src/customer/main.tsx',
    ]);
  });

  it("takes what only the sign-in screen loads, not the entries' modules nor the screens' own", () => {
    const modules = signInModules(entries, '/w/src/ui/screens/auth/LoginScreen.tsx', info);
    expect([...modules].sort()).toEqual([
      '/w/node_modules/@blueprintjs/core/lib/esm/components/forms/inputGroup.js',
      '/w/node_modules/ky/distribution/index.js',
    ]);
  });
});
