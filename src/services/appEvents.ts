import type { SessionEndReason } from '#contract/sessionEnd';

/**
 * App-level events raised by services for the views (docs/product/errors.md): a forced dialog, a session that ended.
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

type SessionEnded = Extract<AppEvent, { type: 'session.ended' }>;

/** The latest session end nobody has taken yet: a 401 while the page starts comes before the app listens. */
let pendingSessionEnd: SessionEnded | null = null;

export function raiseAppEvent(event: AppEvent): void {
  if (event.type === 'session.ended') pendingSessionEnd = event;
  for (const listener of [...listeners]) listener(event);
}

/** The session end raised and not yet taken (the app's handler takes it, also when it mounts after it). */
export function takeSessionEnd(): SessionEnded | null {
  const event = pendingSessionEnd;
  pendingSessionEnd = null;
  return event;
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
