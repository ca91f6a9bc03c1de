/** The company's call routing: GET and PUT /api/v2/call_routing. */
import type { CallRoutingBody, CallRoutingSettings } from '#contract/callRouting';
import { api } from './http';

type Options = { signal?: AbortSignal };

export const callRoutingKeys = { settings: ['call_routing'] as const };

export const getCallRouting = ({ signal }: Options = {}) =>
  api.get('call_routing', { signal }).json<CallRoutingSettings>();

/** PUT /call_routing (Admins). */
export const setCallRouting = (body: CallRoutingBody) =>
  api.put('call_routing', { json: body }).json<CallRoutingSettings>();
