import { type ComponentType, lazy } from 'react';
import { loadChunk } from '../../services/chunks';
import { loadNamespaces, type Namespace } from '../../services/i18n';

/**
 * A screen in its own chunk, loaded with the chunk time-out and errors of §7/§8, together with the text
 * namespaces it uses beyond the ones loaded at start.
 */
export function lazyScreen<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
  namespaces: readonly Namespace[] = [],
) {
  return lazy(async () => {
    const [module] = await Promise.all([loadChunk(load), loadNamespaces(namespaces)]);
    return { default: module[name] as ComponentType };
  });
}
