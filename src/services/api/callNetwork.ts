/** The company's relay-only calls: GET and PUT /api/v2/call_network. */
import type { CallNetwork, CallNetworkBody } from '#contract/callNetwork';
import { api } from './http';

type Options = { signal?: AbortSignal };

export const callNetworkKeys = { settings: ['call_network'] as const };

export const getCallNetwork = ({ signal }: Options = {}) =>
  api.get('call_network', { signal }).json<CallNetwork>();

/** PUT /call_network (Admins). */
export const setCallNetwork = (body: CallNetworkBody) =>
  api.put('call_network', { json: body }).json<CallNetwork>();
