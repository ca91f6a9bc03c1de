/** The quality of a call: the agent's side of it. */
import type { QualitySample } from '#contract/callQualityRules';
import { api } from './http';

/** The call's agent sends what it received (POST /videocall/{id}/quality). */
export async function addCallQuality(callId: number, samples: QualitySample[]): Promise<void> {
  await api.post(`videocall/${callId}/quality`, { json: { samples } });
}
