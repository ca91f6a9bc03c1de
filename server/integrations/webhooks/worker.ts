import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { SecretBox } from '../../auth/secrets';
import type { WebhookConfig } from '../../config';
import type { Changes } from '../../db/changes';
import type { Db, DbOrTx } from '../../db/client';
import { jsonRows } from '../../db/rows';
import { users, webhookDeliveries, webhookEndpoints, webhookLogs, webhookMessages } from '../../db/schema';
import { iso } from '../../domain/format';
import type { MailOutbox } from '../mail';
import { sendTemplated } from '../mailTemplates/send';
import { createAttempts, createPollLoop } from '../pollLoop';
import { CLAIMED_COLUMNS, type Claimed, claimedOf, fanOutCtes, openTo, type Room, withCtes } from './fanOut';
import { followCommits } from './handoff';
import { isRetryable, nextRetryDelayMs, parseRetryAfter } from './schedule';
import { type SendResult, sendWebhook } from './sender';
import { signedHeaders } from './signer';

/**
 * The delivery engine (docs/webhooks.md). Work lives in the database only: `webhook_messages` (the outbox,
 * filled in the transactions of the changes) and `webhook_deliveries` (one per message and endpoint, with
 * the time of its next attempt). Claims use `FOR UPDATE SKIP LOCKED` and push `next_attempt_at` forward by
 * a lease before sending, so several processes can run workers, and a crash mid-attempt only delays that
 * delivery until the lease ends (at least once, never lost).
 */
export interface WebhookWorker {
  start(): void;
  /** Stops the loop and waits for the attempts in flight. */
  stop(): Promise<void>;
  /** Look for work now (after a commit that enqueued something). */
  kick(): void;
  /** One pass: fan out new messages, attempt due deliveries; answers how many attempts were made. */
  runOnce(): Promise<number>;
  /** Attempts one delivery now, whatever its schedule (the console's Send test event); final afterwards. */
  attemptNow(deliveryId: number): Promise<AttemptOutcome>;
}

export interface AttemptOutcome {
  result: SendResult;
  msgId: string;
}

interface Deps {
  db: Db;
  secrets: SecretBox;
  config: WebhookConfig;
  mail: MailOutbox;
  /** The studio's address, for the link in the e-mail to Admins. */
  studioUrl: string;
  onError: (error: unknown) => void;
  /**
   * The database telling, at commit, that messages were queued (any process's): the worker wakes on it
   * instead of waiting for its next look. Without it, only kicks and the poll interval wake it.
   */
  queued?: Changes | undefined;
}

/** What one attempt writes: its log line, its delivery's new state, and (active endpoints) its health. */
interface Outcome {
  log: typeof webhookLogs.$inferInsert;
  deliveryId: number;
  status: 'succeeded' | 'pending' | 'failed';
  attempts: number;
  nextAt: Date | null;
  endpointId: number;
  /** The attempt's success for the endpoint's failing streak; null when the endpoint is disabled. */
  health: boolean | null;
}

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;
/**
 * Attempts waiting for a receiver's answer in one process, and the most to one endpoint that a claim still adds
 * to (a slow receiver cannot take every slot). A slot is free again when the answer is in; its outcome is written
 * after, grouped with others.
 */
const MAX_IN_FLIGHT = 64;
const PER_ENDPOINT = 32;
/**
 * Slots a pass leaves to the claims of transactions that queue events, so that a pass running meanwhile (one runs
 * after every commit that queued something) does not leave them without room.
 */
const KEPT_FOR_ENQUEUES = 16;
const FAN_OUT_BATCH = 200;

export function createWebhookWorker(deps: Deps): WebhookWorker {
  const { db, config } = deps;
  /** How long a claimed delivery is hidden from other workers while its attempt runs. */
  const leaseMs = config.timeoutMs + 30_000;
  /** Attempts in flight: delivery id → endpoint id, and their promises (stop waits for them). */
  const inFlight = new Map<number, number>();
  const attempts = createAttempts(deps.onError, () => loop.kick());

  /** Messages were queued since the last fan-out (or it left some behind). */
  let fanOutDue = true;
  let fannedOutAt = 0;
  /** Messages were queued: fan them out and deliver now. */
  const queuedNow = () => {
    fanOutDue = true;
    loop.kick();
  };

  const loop = createPollLoop({
    pass: pump,
    nextDueInMs,
    fallbackMs: config.pollMs,
    onError: deps.onError,
  });

  async function nextDueInMs(): Promise<number> {
    // Each attempt kicks the loop as it ends, so while any runs the next due time is looked up then.
    if (attempts.size > 0) return config.pollMs;
    const [row] = await db
      .select({ at: sql<string | null>`min(${webhookDeliveries.nextAttemptAt})` })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'));
    if (!row?.at) return config.pollMs;
    const wait = new Date(row.at).getTime() - Date.now();
    return Math.max(0, Math.min(config.pollMs, wait));
  }

  /** Slots held for claims not yet in flight: a pass's, and those of transactions that claimed at enqueue. */
  let held = 0;
  /** Whether the worker runs (claims at enqueue are made and started only then). */
  let running = false;

  /**
   * A pass found no free slot while others held some (a pass run beside the loop's, open transactions' claims): the
   * first of them to let go kicks the loop, since nothing in flight would.
   */
  let starved = false;
  function letGo(room: Room) {
    held -= room.slots;
    if (starved && room.slots > 0) {
      starved = false;
      loop.kick();
    }
  }

  /** Room for a claim of at most `max` deliveries, held until released: free slots and the full endpoints. */
  function reserve(max: number): Room {
    const slots = Math.max(0, Math.min(max, MAX_IN_FLIGHT - inFlight.size - held));
    held += slots;
    const perEndpoint = new Map<number, number>();
    for (const endpointId of inFlight.values())
      perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    const skip = [...perEndpoint].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
    return { slots, skip, lease: new Date(Date.now() + leaseMs).toISOString() };
  }

  /** Attempts a claimed delivery, its slot taken until the receiver's answer is in. */
  function launch(row: Claimed) {
    const id = row.id;
    inFlight.set(id, row.endpointId);
    const release = () => {
      if (inFlight.delete(id)) loop.kick();
    };
    attempts.start(() => attempt(row, false, release), release);
  }

  /** Fans out new messages, then fills the free slots with due deliveries; true when no slot is left. */
  async function pump(): Promise<boolean> {
    // Fan-out only when messages were queued (told at their commit) or, in case a notification was lost, once a
    // poll interval: the passes that refill slots as attempts end cost one claim, not a look at the outbox too.
    const fanning = fanOutDue || Date.now() - fannedOutAt >= config.pollMs;
    fanOutDue = false;
    if (fanning) fannedOutAt = Date.now();
    const room = reserve(MAX_IN_FLIGHT - KEPT_FOR_ENQUEUES - inFlight.size - held);
    if (room.slots === 0 && held > 0) starved = true;
    let taken: Taken;
    try {
      taken = await take(fanning, room);
    } catch (error) {
      if (fanning) fanOutDue = true;
      throw error;
    } finally {
      letGo(room);
    }
    // A full batch leaves more behind: the next pass fans out again.
    if (taken.fanned >= FAN_OUT_BATCH) fanOutDue = true;
    for (const row of taken.claimed) launch(row);
    if (fanOutDue) loop.kick();
    return taken.claimed.length >= room.slots;
  }

  interface Taken {
    /** Messages fanned out. */
    fanned: number;
    claimed: Claimed[];
  }

  /**
   * One statement, so one round trip, atomic without a transaction: takes up to `limit` due deliveries (their next
   * attempt moves a lease ahead, so no other worker takes them) and, when `fanning`, turns new messages into
   * deliveries, one per active endpoint subscribed to the type (empty: every type), moving the events'
   * last-triggered times on. The new deliveries fill the slots the due ones left, claimed as they are inserted: a
   * message queued by an action is on its way after this one statement.
   */
  async function take(fanning: boolean, room: Room): Promise<Taken> {
    const { lease } = room;
    const limit = room.slots;
    const open = openTo(room);
    const claimDue = sql`
      due as materialized (
        select id from ${webhookDeliveries}
        where status = 'pending' and next_attempt_at <= ${new Date().toISOString()}::timestamptz
          and endpoint_id ${open}
        order by next_attempt_at limit ${limit}
        for update skip locked
      ), taken as (
        update ${webhookDeliveries} w set next_attempt_at = ${lease}::timestamptz
        from due where w.id = due.id
        returning w.id, w.attempts, w.company_id, w.endpoint_id, w.message_id, w.created_at
      )`;
    const result = fanning
      ? await db.execute(sql`
          with ${claimDue}, msgs as materialized (
            select id, company_id, event_type, endpoint_id, created_at from ${webhookMessages}
            where fanned_out = false order by id limit ${FAN_OUT_BATCH}
            for update skip locked
          ), marked as (
            update ${webhookMessages} w set fanned_out = true from msgs where w.id = msgs.id
          ), ${withCtes(fanOutCtes(lease, sql`${limit} - (select count(*) from due)`, open))}, d as (
            select id, attempts, company_id, endpoint_id, message_id, created_at from taken
            union all
            select id, attempts, company_id, endpoint_id, message_id, created_at from born
            where next_attempt_at = ${lease}::timestamptz
          )
          select (select count(*)::int from msgs) as fanned, ${CLAIMED_COLUMNS}
          from (select 1) as one
          left join (d join ${webhookMessages} m on m.id = d.message_id
            join ${webhookEndpoints} e on e.id = d.endpoint_id) on true
          order by d.created_at, d.id`)
      : await db.execute(sql`
          with ${claimDue}
          select 0 as fanned, ${CLAIMED_COLUMNS}
          from taken d
          join ${webhookMessages} m on m.id = d.message_id
          join ${webhookEndpoints} e on e.id = d.endpoint_id
          order by d.created_at, d.id`);
    const rows = rowsOf(result);
    return {
      fanned: Number(rows[0]?.fanned ?? 0),
      claimed: rows.filter((row) => row.id !== null && row.id !== undefined).map(claimedOf),
    };
  }

  /** A delivery with its message and endpoint, as read when it is claimed (or sent now). */
  async function loadDelivery(deliveryId: number): Promise<Claimed> {
    const result = await db.execute(sql`
      select ${CLAIMED_COLUMNS}
      from ${webhookDeliveries} d
      join ${webhookMessages} m on m.id = d.message_id
      join ${webhookEndpoints} e on e.id = d.endpoint_id
      where d.id = ${deliveryId}`);
    const [row] = rowsOf(result);
    if (!row) throw new Error(`delivery ${deliveryId} vanished`);
    return claimedOf(row);
  }

  /** One attempt; `answered` runs as soon as the receiver's answer (or its failure) is in, before the write. */
  async function attempt(row: Claimed, final: boolean, answered?: () => void): Promise<AttemptOutcome> {
    const endpoint = row;
    const attemptNo = row.attempts + 1;
    const now = Date.now();
    const secrets = [deps.secrets.open(endpoint.secret)];
    if (
      endpoint.previousSecret &&
      endpoint.previousSecretExpiresAt &&
      endpoint.previousSecretExpiresAt.getTime() > now
    ) {
      secrets.push(deps.secrets.open(endpoint.previousSecret));
    }
    const headers = signedHeaders(secrets, row.msgId, Math.floor(now / 1000), row.body);
    const result: SendResult = endpoint.isActive
      ? await sendWebhook(endpoint.url, headers, row.body, {
          timeoutMs: config.timeoutMs,
          allowPrivate: config.allowPrivate,
        })
      : { status: null, body: null, headers: {}, durationMs: 0, error: 'The endpoint is disabled' };
    answered?.();
    const success = result.status !== null && result.status >= 200 && result.status < 300;
    const retryAfter = parseRetryAfter(
      typeof result.headers['retry-after'] === 'string' ? result.headers['retry-after'] : undefined,
    );
    const delay =
      success || final || !endpoint.isActive || !isRetryable(result.status)
        ? null
        : nextRetryDelayMs(config.retrySchedule, attemptNo, retryAfter);
    const nextAt = delay === null ? null : new Date(Date.now() + delay);
    const status = success ? 'succeeded' : nextAt ? 'pending' : 'failed';
    const disabledNow = await record({
      log: {
        companyId: row.companyId,
        endpointId: row.endpointId,
        deliveryId: row.id,
        msgId: row.msgId,
        event: row.eventType,
        url: endpoint.url,
        payload: {},
        requestHeaders: { ...headers, 'content-type': 'application/json' },
        responseStatus: result.status,
        responseBody: result.body,
        error: result.error,
        success,
        attempt: attemptNo,
        durationMs: result.durationMs,
        nextRetryAt: nextAt,
      },
      deliveryId: row.id,
      status,
      attempts: attemptNo,
      nextAt,
      endpointId: row.endpointId,
      health: endpoint.isActive ? success : null,
    });
    if (disabledNow) await tellAdmins(row.companyId, endpoint.url).catch(deps.onError);
    return { result, msgId: row.msgId };
  }

  /**
   * Group commit: outcomes that finish while a write is running are written together in the next
   * transaction, a few statements for the whole batch (one insert of the logs, one update per kind of outcome),
   * so the database's work per delivery stays well under one statement. An outcome not yet written when the
   * process dies leaves its delivery pending, so it is attempted again after the lease: at least once, never lost.
   */
  type Write = { outcome: Outcome; done: (v: boolean) => void; fail: (e: unknown) => void };
  let writes: Write[] = [];
  let writing: Promise<void> | undefined;
  function record(outcome: Outcome): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      writes.push({ outcome, done, fail });
      if (!writing) writing = flush();
    });
  }
  async function flush(): Promise<void> {
    while (writes.length > 0) {
      const batch = writes;
      writes = [];
      try {
        const disabled = await writeOutcomes(batch.map((w) => w.outcome));
        for (const w of batch) w.done(disabled.has(w.outcome.deliveryId));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    writing = undefined;
  }

  /**
   * Writes a batch of outcomes; answers the deliveries whose failure disabled their endpoint just now. When every
   * attempt to an active endpoint succeeded (the usual batch), that is one statement; a failure's streak is
   * written outcome by outcome after it, in one transaction with it.
   */
  async function writeOutcomes(outcomes: Outcome[]): Promise<Set<number>> {
    const failing = new Set(outcomes.filter((o) => o.health === false).map((o) => o.endpointId));
    const healthy = [
      ...new Set(
        outcomes.filter((o) => o.health === true && !failing.has(o.endpointId)).map((o) => o.endpointId),
      ),
    ];
    if (failing.size === 0) {
      await writeBatch(db, outcomes, healthy);
      return new Set();
    }
    return db.transaction(async (tx) => {
      await writeBatch(tx, outcomes, healthy);
      const disabled = new Set<number>();
      for (const o of outcomes) {
        if (o.health === null || !failing.has(o.endpointId)) continue;
        if (await recordHealth(tx, o.endpointId, o.health)) disabled.add(o.deliveryId);
      }
      return disabled;
    });
  }

  /**
   * The logs, the deliveries' new states and the healthy endpoints' cleared streaks of a batch in one statement:
   * the rows travel as one JSON parameter each (db/rows.ts).
   */
  async function writeBatch(tx: DbOrTx, outcomes: Outcome[], healthy: number[]): Promise<void> {
    const now = new Date().toISOString();
    const logs = outcomes.map(({ log }) => ({
      company_id: log.companyId,
      endpoint_id: log.endpointId,
      delivery_id: log.deliveryId,
      msg_id: log.msgId,
      event: log.event,
      url: log.url,
      payload: log.payload ?? {},
      request_headers: log.requestHeaders ?? {},
      response_status: log.responseStatus,
      response_body: log.responseBody,
      error: log.error,
      success: log.success,
      attempt: log.attempt,
      duration_ms: log.durationMs,
      next_retry_at: log.nextRetryAt ?? null,
    }));
    const states = outcomes.map((o) => ({
      id: o.deliveryId,
      status: o.status,
      attempts: o.attempts,
      next_at: o.nextAt,
    }));
    const cleared = healthy.length
      ? sql`, cleared as (
          update ${webhookEndpoints} set failing_since = null
          where id in (${sql.join(
            healthy.map((id) => sql`${id}::integer`),
            sql`, `,
          )}) and failing_since is not null
        )`
      : sql``;
    await tx.execute(sql`
      with logged as (
        insert into ${webhookLogs} (company_id, endpoint_id, delivery_id, msg_id, event, url, payload, request_headers,
          response_status, response_body, error, success, attempt, duration_ms, next_retry_at)
        select company_id, endpoint_id, delivery_id, msg_id, event, url, payload, request_headers,
          response_status, response_body, error, success, attempt, duration_ms, next_retry_at
        from ${jsonRows(
          logs,
          `company_id int, endpoint_id int, delivery_id int, msg_id text, event text, url text, payload jsonb,
          request_headers jsonb, response_status int, response_body text, error text, success boolean, attempt int,
          duration_ms int, next_retry_at timestamptz`,
        )}
      ), moved as (
        update ${webhookDeliveries} w
        set status = v.status, attempts = v.attempts, next_attempt_at = coalesce(v.next_at, ${now}::timestamptz),
          updated_at = ${now}::timestamptz
        from ${jsonRows(states, 'id int, status text, attempts int, next_at timestamptz')}
        where w.id = v.id
      )${cleared}
      select 1`);
  }

  async function clearFailing(tx: DbOrTx, endpointIds: number[]): Promise<void> {
    await tx
      .update(webhookEndpoints)
      .set({ failingSince: null })
      .where(and(inArray(webhookEndpoints.id, endpointIds), isNotNull(webhookEndpoints.failingSince)));
  }

  /** A success clears the failing streak; a failure starts it, and disables the endpoint once it is too long. */
  async function recordHealth(tx: DbOrTx, endpointId: number, success: boolean): Promise<boolean> {
    if (success) {
      await clearFailing(tx, [endpointId]);
      return false;
    }
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())` })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning({ failingSince: webhookEndpoints.failingSince });
    const since = row?.failingSince;
    if (!since || Date.now() - since.getTime() < config.disableAfterSeconds * 1000) return false;
    const reason = `Disabled automatically: every attempt failed since ${iso(since)}`;
    const disabled = await tx
      .update(webhookEndpoints)
      .set({ isActive: false, disabledReason: reason })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.isActive, true)))
      .returning({ id: webhookEndpoints.id });
    return disabled.length > 0;
  }

  async function tellAdmins(companyId: number, url: string) {
    const admins = await db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.role, 'Admin'), eq(users.isActive, true)));
    for (const admin of admins) {
      await sendTemplated(
        { mail: deps.mail, db },
        'webhook_disabled',
        { email: admin.email, companyId },
        {
          url,
          hours: Math.round(config.disableAfterSeconds / 3600),
          link: `${deps.studioUrl}/company-settings`,
        },
      );
    }
  }

  /** Stops listening for queued messages (set while the worker runs). */
  let unlisten: Promise<() => Promise<void>> | undefined;
  /** Stops following the database's transactions for their claims at enqueue (set while the worker runs). */
  let unfollow: (() => void) | undefined;

  return {
    start() {
      loop.start();
      running = true;
      unfollow ??= followCommits(db, {
        reserve: (max) => (running ? reserve(max) : null),
        settle(rooms, committed) {
          for (const room of rooms) letGo(room);
          // Stopped meanwhile: the deliveries stay leased, and a pass takes them when the lease ends.
          if (committed && running) for (const row of committed) launch(row);
          loop.kick();
        },
      });
      if (deps.queued && !unlisten) {
        // While the notifications may go untold (blind), the poll interval still finds the work.
        unlisten = deps.queued.listen(queuedNow);
        unlisten.catch(deps.onError);
      }
    },
    async stop() {
      running = false;
      unfollow?.();
      unfollow = undefined;
      const listening = unlisten;
      unlisten = undefined;
      if (listening) await (await listening.catch(() => async () => undefined))();
      await loop.stop();
      await attempts.settled();
    },
    kick: queuedNow,
    runOnce: () => {
      fanOutDue = true;
      return attempts.runOnce(pump);
    },
    attemptNow: async (deliveryId) => attempt(await loadDelivery(deliveryId), true),
  };
}
