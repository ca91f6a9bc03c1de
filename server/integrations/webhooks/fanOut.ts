import { type SQL, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, webhookEventToggles } from '../../db/schema';

/**
 * Turning messages into deliveries, written once for the two statements that do it: the worker's pass (messages
 * found unfanned in the outbox) and the enqueue of an event in a transaction whose commit this process sees
 * (handoff.ts), which fans its own message out and claims the new deliveries as it queues it, so that they are
 * sent right after COMMIT with no further trip to the database.
 */

/** A claimed delivery with what its attempt sends: the delivery, its message and its endpoint. */
export interface Claimed {
  id: number;
  attempts: number;
  companyId: number;
  endpointId: number;
  msgId: string;
  eventType: string;
  body: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  isActive: boolean;
}

/** The columns of a claimed delivery `d`, its message `m` and its endpoint `e`, named as `Claimed`'s fields. */
export const CLAIMED_COLUMNS =
  sql.raw(`d.id, d.attempts, d.company_id as "companyId", d.endpoint_id as "endpointId",
  m.msg_id as "msgId", m.event_type as "eventType", m.body, e.url, e.secret,
  e.previous_secret as "previousSecret", e.previous_secret_expires_at as "previousSecretExpiresAt",
  e.is_active as "isActive"`);

/** PGlite reads timestamps as text, node-postgres as dates (and JSON gives them as text on both). */
const dateOf = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));
export const claimedOf = (row: Record<string, unknown>): Claimed =>
  ({
    ...row,
    id: Number(row.id),
    attempts: Number(row.attempts),
    companyId: Number(row.companyId),
    endpointId: Number(row.endpointId),
    previousSecretExpiresAt: dateOf(row.previousSecretExpiresAt),
  }) as unknown as Claimed;

/** Where a claim may take deliveries now: how many at most, its lease's end, and the endpoints it must leave. */
export interface Room {
  slots: number;
  /** The end of the claim's lease (ISO): the claimed deliveries' next attempt, should this one never be made. */
  lease: string;
  /** Endpoints with as many attempts in flight as one endpoint may have. */
  skip: number[];
}

/** The SQL condition on an endpoint id that leaves out the room's full endpoints. */
export function openTo(room: Room): SQL {
  return room.skip.length
    ? sql`not in (${sql.join(
        room.skip.map((id) => sql`${id}::integer`),
        sql`, `,
      )})`
    : sql`is not null`;
}

/**
 * The CTEs after `msgs` (the messages to fan out: `id, company_id, event_type, endpoint_id, created_at`): one
 * delivery per active endpoint subscribed to the type (empty: every type), in `born`; the first `room` of them
 * to endpoints that are `open` are claimed as they are inserted (their next attempt is the lease's end), the
 * others are due at once for the next pass; the events' last-triggered times move on. `room` is an SQL count.
 */
export function fanOutCtes(lease: string, room: SQL, open: SQL): { name: string; body: SQL }[] {
  return [
    {
      name: 'targets',
      body: sql`
        select m.id as message_id, e.id as endpoint_id, m.company_id, m.created_at,
          e.id ${open} as ready, row_number() over (partition by e.id ${open} order by m.id, e.id) as n
        from msgs m
        join ${webhookEndpoints} e on e.company_id = m.company_id and e.is_active
          and (jsonb_array_length(e.enabled_events) = 0 or e.enabled_events @> jsonb_build_array(m.event_type))
        -- a test message has its one delivery already
        where m.endpoint_id is null`,
    },
    {
      name: 'born',
      body: sql`
        insert into ${webhookDeliveries} (message_id, endpoint_id, company_id, next_attempt_at)
        select message_id, endpoint_id, company_id,
          case when ready and n <= ${room} then ${lease}::timestamptz else created_at end
        from targets order by message_id, endpoint_id
        returning id, attempts, company_id, endpoint_id, message_id, created_at, next_attempt_at`,
    },
    {
      name: 'triggered',
      body: sql`
        insert into ${webhookEventToggles} as t (company_id, event, enabled, last_triggered_at)
        select company_id, event_type, true, max(created_at) from msgs
        where endpoint_id is null group by company_id, event_type
        on conflict (company_id, event)
        do update set last_triggered_at = greatest(t.last_triggered_at, excluded.last_triggered_at)`,
    },
  ];
}

/** The deliveries `born` claimed, with their message (`msgs`, with its `msg_id` and `body`) and endpoint. */
export function bornClaimed(lease: string): SQL {
  return sql`
    select ${CLAIMED_COLUMNS}
    from born d
    join msgs m on m.id = d.message_id
    join ${webhookEndpoints} e on e.id = d.endpoint_id
    where d.next_attempt_at = ${lease}::timestamptz`;
}

/** `with name as (body), …` of a list of CTEs. */
export function withCtes(ctes: { name: string; body: SQL }[]): SQL {
  return sql.join(
    ctes.map(({ name, body }) => sql`${sql.identifier(name)} as (${body})`),
    sql`, `,
  );
}
