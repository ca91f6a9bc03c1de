import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { SessionEvent } from '../../../machines/session.machine';
import { loadChunk } from '../../../services/chunks';
import type { SessionActor } from './signInSession';

const loadSession = () => loadChunk(() => import('./signInSession'));

/**
 * The sign-in's session machine, loaded after the page has shown: XState and the HTTP client are not needed
 * to draw the form or to type in it. Until the machine runs, `state` is null and an event sent waits for it
 * (`waiting`: the form shows itself busy), then goes to the machine before anything else. A failed load
 * reaches the screen's error boundary, as a failed screen chunk does.
 */
export function useSignInSession(email: string, signedIn: () => void) {
  const [actor, setActor] = useState<SessionActor | null>(null);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [waiting, setWaiting] = useState(false);
  const queued = useRef<SessionEvent[]>([]);
  // The running machine as soon as it starts, for events sent before the screen has rendered with it: a submit
  // handler of the render before holds `actor` as null, and its event would otherwise wait for good.
  const running = useRef<SessionActor | null>(null);
  // The machine starts with the page's first e-mail, as a machine's input does.
  const [initialEmail] = useState(email);
  const latestSignedIn = useRef(signedIn);
  useLayoutEffect(() => {
    latestSignedIn.current = signedIn;
  });

  useEffect(() => {
    let live = true;
    let started: SessionActor | undefined;
    loadSession().then(
      ({ startSession }) => {
        if (!live) return;
        started = startSession(initialEmail, () => latestSignedIn.current());
        running.current = started;
        for (const event of queued.current.splice(0)) started.send(event);
        setActor(started);
        setWaiting(false);
      },
      (error: unknown) => {
        if (live) setFailure({ error });
      },
    );
    return () => {
      live = false;
      running.current = null;
      started?.stop();
    };
  }, [initialEmail]);

  const subscribe = useCallback(
    (onChange: () => void) => {
      if (!actor) return () => {};
      const subscription = actor.subscribe({ next: onChange, error: onChange });
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  const read = useCallback(() => actor?.getSnapshot() ?? null, [actor]);
  const state = useSyncExternalStore(subscribe, read);
  const send = useCallback((event: SessionEvent) => {
    if (running.current) return running.current.send(event);
    queued.current.push(event);
    setWaiting(true);
  }, []);

  if (failure) throw failure.error;
  if (state?.status === 'error') throw state.error;
  return { state, send, waiting };
}
