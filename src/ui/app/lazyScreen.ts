import { type ComponentType, lazy } from 'react';
import { loadChunk } from '../../services/chunks';

/** A screen in its own chunk, loaded with the chunk time-out and errors of §7/§8. */
export function lazyScreen<M extends Record<string, unknown>, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
) {
  return lazy(() => loadChunk(load).then((module) => ({ default: module[name] as ComponentType })));
}
