/** Call evidence: the signed package of a call, a profile's legal hold, the company's retention. */
import type { EvidenceRetention, LegalHold } from '#contract/evidence';
import { saveBlob } from '../download';
import { api } from './http';

type Options = { signal?: AbortSignal };

export const evidenceKeys = {
  legalHold: (profileId: number) => ['profile', profileId, 'legal_hold'] as const,
  retention: ['evidence', 'retention'] as const,
};

/**
 * Downloads the call's evidence package (a ZIP) and saves it as `call-<id>-evidence.zip`. Not retried: each
 * download is audited on the server.
 */
export async function downloadEvidence(callId: number, { signal }: Options = {}): Promise<void> {
  const blob = await api.get(`videocall/${callId}/evidence`, { signal, retry: 0, timeout: 120_000 }).blob();
  saveBlob(`call-${callId}-evidence.zip`, blob);
}

export const getLegalHold = (profileId: number, { signal }: Options = {}) =>
  api.get(`profile/${profileId}/legal_hold`, { signal }).json<LegalHold>();

/** PUT /profile/{id}/legal_hold (Admins): sets or lifts the hold, with a reason. */
export const setLegalHold = (profileId: number, body: { hold: boolean; reason: string }) =>
  api.put(`profile/${profileId}/legal_hold`, { json: body }).json<LegalHold>();

export const getRetention = ({ signal }: Options = {}) =>
  api.get('evidence/retention', { signal }).json<EvidenceRetention>();

export const setRetention = (days: number) =>
  api.put('evidence/retention', { json: { evidence_retention_days: days } }).json<EvidenceRetention>();
