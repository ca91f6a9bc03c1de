import type { SessionEndReason } from '../contract/sessions';

/**
 * App-level events raised by services for the views (§8): a forced dialog, a session that ended.
 * Forced events are raised once: a repeat is ignored until the handler settles it.
 */
export type AppEvent =
  | { type: 'password-reset.required' }
  | { type: 'two-factor-reset.required' }
  | { type: 'session.ended'; email: string | null; reason: SessionEndReason | null };

type Listener = (event: AppEvent) => void;

const listeners = new Set<Listener>();
const raised = new Set<AppEvent['type']>();

export function onAppEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function raiseAppEvent(event: AppEvent): void {
  for (const listener of [...listeners]) listener(event);
}

/** Raise a forced event unless it is already raised and not yet settled. */
export function raiseOnce(event: AppEvent): void {
  if (raised.has(event.type)) return;
  raised.add(event.type);
  raiseAppEvent(event);
}

/** The forced step is over (its dialog closed); the event may be raised again. */
export function settleAppEvent(type: AppEvent['type']): void {
  raised.delete(type);
}
