import { useSelector } from '@xstate/react';
import { useSyncExternalStore } from 'react';
import { callStreams } from '../../../services/callStreams';
import { useRealtime } from '../../app/realtime/RealtimeProvider';

/** The desk's call with this id, if this window runs it. */
export function useDeskCall(callId: number) {
  const realtime = useRealtime();
  const call = useSelector(realtime?.desk, (s) => s?.context.call ?? null);
  return call && call.getSnapshot().context.call.call_id === callId ? call : null;
}

export function useCallStreams(callId: number) {
  return useSyncExternalStore(callStreams.subscribe, () => callStreams.get(callId));
}
