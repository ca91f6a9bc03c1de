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
