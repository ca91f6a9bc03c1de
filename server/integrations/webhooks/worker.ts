import { and, asc, eq, inArray, isNotNull, lte, notInArray, sql } from 'drizzle-orm';
import type { SecretBox } from '../../auth/secrets';
import type { WebhookConfig } from '../../config';
import type { Changes } from '../../db/changes';
import type { Db, DbOrTx, Tx } from '../../db/client';
import {
  users,
  webhookDeliveries,
  webhookEndpoints,
  webhookEventToggles,
  webhookLogs,
  webhookMessages,
} from '../../db/schema';
import { iso } from '../../domain/format';
import type { MailOutbox } from '../mail';
import { sendTemplated } from '../mailTemplates/send';
import { createAttempts, createPollLoop } from '../pollLoop';
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

/** A claimed delivery with what its attempt sends. */
interface Claimed {
  delivery: typeof webhookDeliveries.$inferSelect;
  message: typeof webhookMessages.$inferSelect;
  endpoint: typeof webhookEndpoints.$inferSelect;
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

/** Deliveries with the message and endpoint an attempt sends. */
const withParts = (db: DbOrTx) =>
  db
    .select({ delivery: webhookDeliveries, message: webhookMessages, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId));

/** Attempts in flight in one process, and at most this many to one endpoint (a slow one cannot starve others). */
const MAX_IN_FLIGHT = 32;
const PER_ENDPOINT = 8;
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
    const [row] = await db
      .select({ at: sql<string | null>`min(${webhookDeliveries.nextAttemptAt})` })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.status, 'pending'));
    if (!row?.at) return config.pollMs;
    const wait = new Date(row.at).getTime() - Date.now();
    return Math.max(0, Math.min(config.pollMs, wait));
  }

  /** Fans out new messages, then fills the free slots with due deliveries; true when no slot is left. */
  async function pump(): Promise<boolean> {
    // Fan-out only when messages were queued (told at their commit) or, in case a notification was lost, once a
    // poll interval: the passes that refill slots as attempts end cost one claim, not a look at the outbox too.
    const fanning = fanOutDue || Date.now() - fannedOutAt >= config.pollMs;
    fanOutDue = false;
    const free = MAX_IN_FLIGHT - inFlight.size;
    const perEndpoint = new Map<number, number>();
    for (const endpointId of inFlight.values())
      perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    const saturated = [...perEndpoint].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
    let claimed: Claimed[];
    try {
      // One transaction for both: the new messages' deliveries are claimable in the same pass.
      claimed = await db.transaction(async (tx) => {
        if (fanning) {
          fannedOutAt = Date.now();
          // A full batch leaves more behind: the next pass fans out again.
          if (await fanOut(tx)) fanOutDue = true;
        }
        return free > 0 ? claim(tx, free, saturated) : [];
      });
    } catch (error) {
      if (fanning) fanOutDue = true;
      throw error;
    }
    if (free <= 0) return true;
    for (const row of claimed) {
      const id = row.delivery.id;
      inFlight.set(id, row.delivery.endpointId);
      attempts.start(
        () => attempt(row, false),
        () => inFlight.delete(id),
      );
    }
    return claimed.length >= free;
  }

  /**
   * New messages become deliveries, one per active endpoint subscribed to the type (empty: every type); true
   * when the batch was full (more may be waiting).
   */
  async function fanOut(tx: Tx): Promise<boolean> {
    const messages = await tx
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.fannedOut, false))
      .orderBy(asc(webhookMessages.id))
      .limit(FAN_OUT_BATCH)
      .for('update', { skipLocked: true });
    if (messages.length === 0) return false;
    const companies = [...new Set(messages.map((m) => m.companyId))];
    const endpoints = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(inArray(webhookEndpoints.companyId, companies), eq(webhookEndpoints.isActive, true)));
    const deliveries: (typeof webhookDeliveries.$inferInsert)[] = [];
    const triggered = new Map<string, { companyId: number; event: string; at: Date }>();
    for (const m of messages) {
      if (m.endpointId !== null) continue; // a test message: its delivery exists already
      triggered.set(`${m.companyId} ${m.eventType}`, {
        companyId: m.companyId,
        event: m.eventType,
        at: m.createdAt,
      });
      for (const e of endpoints) {
        if (e.companyId !== m.companyId) continue;
        if (e.enabledEvents.length > 0 && !e.enabledEvents.includes(m.eventType)) continue;
        deliveries.push({
          messageId: m.id,
          endpointId: e.id,
          companyId: m.companyId,
          nextAttemptAt: m.createdAt,
        });
      }
    }
    if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries);
    for (const t of triggered.values()) {
      await tx
        .insert(webhookEventToggles)
        .values({ companyId: t.companyId, event: t.event, enabled: true, lastTriggeredAt: t.at })
        .onConflictDoUpdate({
          target: [webhookEventToggles.companyId, webhookEventToggles.event],
          set: {
            lastTriggeredAt: sql`greatest(${webhookEventToggles.lastTriggeredAt}, excluded.last_triggered_at)`,
          },
        });
    }
    await tx
      .update(webhookMessages)
      .set({ fannedOut: true })
      .where(
        inArray(
          webhookMessages.id,
          messages.map((m) => m.id),
        ),
      );
    return messages.length >= FAN_OUT_BATCH;
  }

  /**
   * Takes up to `limit` due deliveries, with their message and endpoint: their next attempt moves a lease ahead,
   * so no other worker takes them. One read and one write for the whole batch, not one read per attempt.
   */
  async function claim(tx: Tx, limit: number, skipEndpoints: number[]): Promise<Claimed[]> {
    const due = await withParts(tx)
      .where(
        and(
          eq(webhookDeliveries.status, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, new Date()),
          skipEndpoints.length > 0 ? notInArray(webhookDeliveries.endpointId, skipEndpoints) : undefined,
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for('update', { of: webhookDeliveries, skipLocked: true });
    if (due.length === 0) return [];
    await tx
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date(Date.now() + leaseMs) })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((d) => d.delivery.id),
        ),
      );
    return due;
  }

  /** A delivery with its message and endpoint, as read when it is claimed (or sent now). */
  async function loadDelivery(deliveryId: number): Promise<Claimed> {
    const [row] = await withParts(db).where(eq(webhookDeliveries.id, deliveryId));
    if (!row) throw new Error(`delivery ${deliveryId} vanished`);
    return row;
  }

  async function attempt(row: Claimed, final: boolean): Promise<AttemptOutcome> {
    const { delivery, message, endpoint } = row;
    const attemptNo = delivery.attempts + 1;
    const now = Date.now();
    const secrets = [deps.secrets.open(endpoint.secret)];
    if (
      endpoint.previousSecret &&
      endpoint.previousSecretExpiresAt &&
      endpoint.previousSecretExpiresAt.getTime() > now
    ) {
      secrets.push(deps.secrets.open(endpoint.previousSecret));
    }
    const headers = signedHeaders(secrets, message.msgId, Math.floor(now / 1000), message.body);
    const result: SendResult = endpoint.isActive
      ? await sendWebhook(endpoint.url, headers, message.body, {
          timeoutMs: config.timeoutMs,
          allowPrivate: config.allowPrivate,
        })
      : { status: null, body: null, headers: {}, durationMs: 0, error: 'The endpoint is disabled' };
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
        companyId: delivery.companyId,
        endpointId: endpoint.id,
        deliveryId: delivery.id,
        msgId: message.msgId,
        event: message.eventType,
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
      deliveryId: delivery.id,
      status,
      attempts: attemptNo,
      nextAt,
      endpointId: endpoint.id,
      health: endpoint.isActive ? success : null,
    });
    if (disabledNow) await tellAdmins(delivery.companyId, endpoint.url).catch(deps.onError);
    return { result, msgId: message.msgId };
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
        const disabled = await db.transaction((tx) =>
          writeOutcomes(
            tx,
            batch.map((w) => w.outcome),
          ),
        );
        for (const w of batch) w.done(disabled.has(w.outcome.deliveryId));
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    writing = undefined;
  }

  /** Writes a batch of outcomes; answers the deliveries whose failure disabled their endpoint just now. */
  async function writeOutcomes(tx: Tx, outcomes: Outcome[]): Promise<Set<number>> {
    await tx.insert(webhookLogs).values(outcomes.map((o) => o.log));
    // Final outcomes (succeeded, failed) of the same attempt number are one update; retries carry their own time.
    const now = new Date();
    const finals = new Map<string, number[]>();
    for (const o of outcomes) {
      if (o.nextAt !== null) {
        await tx
          .update(webhookDeliveries)
          .set({ status: o.status, attempts: o.attempts, nextAttemptAt: o.nextAt, updatedAt: now })
          .where(eq(webhookDeliveries.id, o.deliveryId));
        continue;
      }
      const key = `${o.status} ${o.attempts}`;
      finals.set(key, [...(finals.get(key) ?? []), o.deliveryId]);
    }
    for (const [key, ids] of finals) {
      const [status, attempts] = key.split(' ');
      await tx
        .update(webhookDeliveries)
        .set({ status, attempts: Number(attempts), nextAttemptAt: now, updatedAt: now })
        .where(inArray(webhookDeliveries.id, ids));
    }
    // An endpoint whose every outcome here succeeded is cleared in one statement; one with a failure among them
    // is written outcome by outcome, in order, as its failing streak depends on it.
    const failing = new Set(outcomes.filter((o) => o.health === false).map((o) => o.endpointId));
    const healthy = new Set(
      outcomes.filter((o) => o.health === true && !failing.has(o.endpointId)).map((o) => o.endpointId),
    );
    if (healthy.size > 0) await clearFailing(tx, [...healthy]);
    const disabled = new Set<number>();
    for (const o of outcomes) {
      if (o.health === null || !failing.has(o.endpointId)) continue;
      if (await recordHealth(tx, o.endpointId, o.health)) disabled.add(o.deliveryId);
    }
    return disabled;
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

  return {
    start() {
      loop.start();
      if (deps.queued && !unlisten) {
        // While the notifications may go untold (blind), the poll interval still finds the work.
        unlisten = deps.queued.listen(queuedNow);
        unlisten.catch(deps.onError);
      }
    },
    async stop() {
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
