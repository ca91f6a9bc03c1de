/** The machine checks of a call's screenshots (GET /videocall/{id}/checks): face match and MRZ hints. */
import type { MachineCheck } from '#contract/machineChecks';
import { api } from './http';

type Options = { signal?: AbortSignal };

export const machineCheckKeys = {
  call: (callId: number) => ['machineChecks', callId] as const,
};

export function getCallChecks(callId: number, { signal }: Options = {}): Promise<MachineCheck[]> {
  return api.get(`videocall/${callId}/checks`, { signal }).json<MachineCheck[]>();
}
