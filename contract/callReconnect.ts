/**
 * How a call rides out a network change, shared by the studio and the customer's page (no zod: the join page
 * loads it). Why these figures: docs/decisions/0202-calls-across-real-networks.md.
 */

/**
 * How long a call may stay "Reconnecting…" after its peer connection went `disconnected` or `failed`: past it
 * the agent's studio ends the call (the status is CONNECTION ERROR unless the agent picks another). Long
 * enough for a phone to move from Wi-Fi to mobile data or through a tunnel, short enough that a customer who
 * is gone does not hold an agent for long.
 */
export const RECONNECT_GRACE_MS = 30_000;

/**
 * While reconnecting, the agent's side offers a fresh ICE restart this often (an offer sent while the
 * customer's socket was down never arrives), and the customer's side asks for one as often.
 */
export const ICE_RESTART_INTERVAL_MS = 4_000;

/**
 * The customer's page gives up this long after the agent's studio would: when the customer is reachable, the
 * agent's end of the call reaches them first and says why.
 */
export const CUSTOMER_GRACE_MARGIN_MS = 5_000;
