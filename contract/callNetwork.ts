/**
 * How a company's calls cross networks: relay-only calls send every byte of media through the TURN server, so
 * neither side ever learns the other's address (the agent's office, the customer's home).
 */
import { z } from 'zod';

export const callNetworkSchema = z.object({
  /** The company's own setting. */
  relay_only: z.boolean(),
  /** The server makes every call relay-only (ICE_TRANSPORT_POLICY=relay), whatever the company's setting. */
  relay_only_by_server: z.boolean(),
  /** The server has a TURN server to relay through (TURN_URLS); relay-only needs one. */
  turn_configured: z.boolean(),
});
export type CallNetwork = z.infer<typeof callNetworkSchema>;

/** PUT /api/v2/call_network. */
export const callNetworkBodySchema = z.strictObject({ relay_only: z.boolean() });
export type CallNetworkBody = z.infer<typeof callNetworkBodySchema>;
