/**
 * Fair routing of waiting calls: a company rings every free agent at once (`ring_all`, the
 * default) or offers each waiting call to one agent at a time (`one_at_a_time`), chosen at random among the free
 * agents who speak the customer's language and took the fewest calls in the last hour; the agent has
 * `offer_seconds` to answer before the next one is offered.
 */
import { z } from 'zod';

export const CALL_ROUTINGS = ['ring_all', 'one_at_a_time'] as const;
export type CallRouting = (typeof CALL_ROUTINGS)[number];

/** How long one agent is offered a call, in seconds: 5 to 120, default 15. */
export const OFFER_SECONDS = { min: 5, max: 120, default: 15 } as const;

/**
 * How many new calls one join link may start after its calls ended by a technical abort (MISSED, BAD QUALITY,
 * CONNECTION ERROR, DISCONNECTED): 0 to 5, default 1. Any other ending uses the link up.
 */
export const JOIN_LINK_RETRIES = { min: 0, max: 5, default: 1 } as const;
const JOIN_LINK_RETRIES_BOUNDS = `Retries of a join link are a whole number from ${JOIN_LINK_RETRIES.min} to ${JOIN_LINK_RETRIES.max}`;

/** The languages an agent may speak with customers: the join page's languages (CONSENT_LANGUAGES). */
export const AGENT_LANGUAGES = ['en-US', 'tr'] as const;
export type AgentLanguage = (typeof AGENT_LANGUAGES)[number];

export const callRoutingSchema = z.object({
  call_routing: z.enum(CALL_ROUTINGS),
  offer_seconds: z.number().int(),
  join_link_retries: z.number().int(),
});
export type CallRoutingSettings = z.infer<typeof callRoutingSchema>;

/** PUT /api/v2/call_routing: the routing and its seconds are required; without `join_link_retries` it stays. */
export const callRoutingBodySchema = z.strictObject({
  call_routing: z.enum(CALL_ROUTINGS),
  offer_seconds: z
    .number()
    .int()
    .min(OFFER_SECONDS.min, `Offer a call at least ${OFFER_SECONDS.min} seconds`)
    .max(OFFER_SECONDS.max, `Offer a call at most ${OFFER_SECONDS.max} seconds`),
  join_link_retries: z
    .number()
    .int(JOIN_LINK_RETRIES_BOUNDS)
    .min(JOIN_LINK_RETRIES.min, JOIN_LINK_RETRIES_BOUNDS)
    .max(JOIN_LINK_RETRIES.max, JOIN_LINK_RETRIES_BOUNDS)
    .optional(),
});
export type CallRoutingBody = z.infer<typeof callRoutingBodySchema>;

/** Who is being offered a waiting call now (one-at-a-time routing), as the queue shows it. */
export const callOfferSchema = z.object({
  agent_id: z.number().int(),
  agent_name: z.string(),
  /** When the offer lapses (ISO). */
  expires_at: z.string(),
});
export type CallOffer = z.infer<typeof callOfferSchema>;
