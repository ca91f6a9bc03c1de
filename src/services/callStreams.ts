/** The camera and remote streams of running calls, for the views to show (the machines hold no media). */
export interface CallStreams {
  local: MediaStream | null;
  remote: MediaStream | null;
}

export const callStreams = (() => {
  const streams = new Map<number, CallStreams>();
  const listeners = new Set<() => void>();
  const empty: CallStreams = { local: null, remote: null };
  const changed = () => {
    for (const listener of listeners) listener();
  };
  return {
    get: (callId: number): CallStreams => streams.get(callId) ?? empty,
    set(callId: number, update: Partial<CallStreams>) {
      streams.set(callId, { ...(streams.get(callId) ?? empty), ...update });
      changed();
    },
    delete(callId: number) {
      streams.delete(callId);
      changed();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
})();

/**
 * When each call's recording started (a step result names its offset in the recording). Kept after the
 * call's streams are gone: the agent records the decision in the wrap-up, after hang-up.
 */
export const recordingStarts = (() => {
  const starts = new Map<number, number>();
  return {
    mark(callId: number, at = Date.now()) {
      if (!starts.has(callId)) starts.set(callId, at);
    },
    /** Milliseconds since the call's recording started (0 before it did). */
    offset(callId: number, now = Date.now()): number {
      const start = starts.get(callId);
      return start === undefined ? 0 : Math.max(0, now - start);
    },
  };
})();
