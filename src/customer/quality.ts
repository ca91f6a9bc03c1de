/**
 * The customer's side of the call quality: what the customer's page receives, measured from
 * the peer's statistics every few seconds and sent with the join-link token (POST /videocall/{id}/quality/customer).
 */
import type { QualitySample } from '#contract/callQualityRules';
import type { PeerLink } from '../services/callMedia';
import { meterQuality } from '../services/qualityMeter';

/** Starts measuring once the peer is connected; the returned function stops it (and sends what is left). */
export function measureCustomerQuality(options: {
  server: string;
  token: string;
  callId: number;
  link: PeerLink;
}): () => void {
  return meterQuality({
    peer: options.link.connection(),
    async send(samples: QualitySample[]) {
      const response = await fetch(`${options.server}/api/v2/videocall/${options.callId}/quality/customer`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ samples }),
      });
      if (!response.ok) throw Object.assign(new Error(response.statusText), { status: response.status });
    },
  });
}
