/**
 * One chunk for what the sign-in page loads beside the studio's entry: the libraries and shared modules the
 * sign-in screen imports (Blueprint's form components, the field modules, the page's controls). Left alone,
 * Rolldown made about 25 chunks of them, each its own request and its own gzip stream (48.5 KB gzip apart,
 * 43.2 KB as one). The screens' own modules (src/ui/screens) stay in their chunks, so a signed-in page that
 * imports one of these libraries does not load the sign-in screen with it.
 */
import { resolve } from 'node:path';
import type { Rolldown } from 'vite';

type ModuleInfo = { importedIds: readonly string[] } | null;

/** Every module `from` imports statically, directly or not (itself included). */
export function staticClosure(from: string, info: (id: string) => ModuleInfo): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of info(id)?.importedIds ?? []) stack.push(next);
  }
  return seen;
}

const SCREENS = /[\\/]src[\\/]ui[\\/]screens[\\/]/;
/**
 * Blueprint's components the sign-in page draws beside the button (the entry's): the walk cannot tell them
 * from the rest, since every module reaches all of Blueprint through its index.
 */
const BLUEPRINT_FORMS =
  /@blueprintjs[\\/]core[\\/]lib[\\/]esm[\\/](components[\\/](html-select[\\/]htmlSelect|forms[\\/](formGroup|inputGroup|asyncControllableInput))|common[\\/]abstractPureComponent)\.js$/;

/**
 * The modules of the group: the sign-in screen's static imports, less those of the entries (the studio's,
 * the customer's page) and the screens' own; and Blueprint's form components.
 */
export function signInModules(
  entries: readonly string[],
  signIn: string,
  info: (id: string) => ModuleInfo,
): Set<string> {
  const initial = new Set(entries.flatMap((entry) => [...staticClosure(entry, info)]));
  const modules = new Set<string>();
  for (const id of staticClosure(signIn, info))
    if (BLUEPRINT_FORMS.test(id) || (!initial.has(id) && !SCREENS.test(id) && !id.startsWith('\0')))
      modules.add(id);
  return modules;
}

export function signInChunk(root: string): Rolldown.CodeSplittingGroup {
  const entries = [resolve(root, 'src/main.tsx'), resolve(root, 'src/customer/main.tsx')];
  const signIn = resolve(root, 'src/ui/screens/auth/LoginScreen.tsx');
  let modules: Set<string> | undefined;
  return {
    debugName: 'sign-in',
    // The group's modules import the entry's (React, i18next) from the entry's chunks, as any lazy chunk
    // does; pulling those into the group would make every entry (the customer's page too) load it.
    includeDependenciesRecursively: false,
    name: (id, ctx) => {
      modules ??= signInModules(entries, signIn, (module) => ctx.getModuleInfo(module));
      return modules.has(id) ? 'signin' : null;
    },
  };
}
