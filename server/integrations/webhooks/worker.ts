import { and, asc, eq, inArray, isNotNull, lte, notInArray, sql } from 'drizzle-orm';
import type { SecretBox } from '../../auth/secrets';
import type { WebhookConfig } from '../../config';
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
}

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
    await fanOut();
    const free = MAX_IN_FLIGHT - inFlight.size;
    if (free <= 0) return true;
    const perEndpoint = new Map<number, number>();
    for (const endpointId of inFlight.values())
      perEndpoint.set(endpointId, (perEndpoint.get(endpointId) ?? 0) + 1);
    const saturated = [...perEndpoint].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
    const claimed = await claim(free, saturated);
    for (const { id, endpointId } of claimed) {
      inFlight.set(id, endpointId);
      attempts.start(
        () => attempt(id, false),
        () => inFlight.delete(id),
      );
    }
    return claimed.length >= free;
  }

  /** New messages become deliveries, one per active endpoint subscribed to the type (empty: every type). */
  async function fanOut(): Promise<void> {
    await db.transaction(async (tx) => {
      const messages = await tx
        .select()
        .from(webhookMessages)
        .where(eq(webhookMessages.fannedOut, false))
        .orderBy(asc(webhookMessages.id))
        .limit(FAN_OUT_BATCH)
        .for('update', { skipLocked: true });
      if (messages.length === 0) return;
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
    });
  }

  /** Takes up to `limit` due deliveries: their next attempt moves a lease ahead, so no other worker takes them. */
  async function claim(
    limit: number,
    skipEndpoints: number[],
  ): Promise<{ id: number; endpointId: number }[]> {
    return db.transaction(async (tx) => {
      const due = await tx
        .select({ id: webhookDeliveries.id, endpointId: webhookDeliveries.endpointId })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.status, 'pending'),
            lte(webhookDeliveries.nextAttemptAt, new Date()),
            skipEndpoints.length > 0 ? notInArray(webhookDeliveries.endpointId, skipEndpoints) : undefined,
          ),
        )
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(limit)
        .for('update', { skipLocked: true });
      if (due.length === 0) return [];
      const ids = due.map((d) => d.id);
      await tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: new Date(Date.now() + leaseMs) })
        .where(inArray(webhookDeliveries.id, ids));
      return due;
    });
  }

  async function attempt(deliveryId: number, final: boolean): Promise<AttemptOutcome> {
    const [row] = await db
      .select({ delivery: webhookDeliveries, message: webhookMessages, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookMessages, eq(webhookMessages.id, webhookDeliveries.messageId))
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, deliveryId));
    if (!row) throw new Error(`delivery ${deliveryId} vanished`);
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
    const disabledNow = await record(async (tx) => {
      await tx.insert(webhookLogs).values({
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
      });
      await tx
        .update(webhookDeliveries)
        .set({ status, attempts: attemptNo, nextAttemptAt: nextAt ?? new Date(), updatedAt: new Date() })
        .where(eq(webhookDeliveries.id, delivery.id));
      if (!endpoint.isActive) return false;
      return recordHealth(tx, endpoint.id, success);
    });
    if (disabledNow) await tellAdmins(delivery.companyId, endpoint.url).catch(deps.onError);
    return { result, msgId: message.msgId };
  }

  /**
   * Group commit: outcomes that finish while a write is running are written together in the next
   * transaction (one commit for many attempts). An outcome not yet written when the process dies leaves its
   * delivery pending, so it is attempted again after the lease: at least once, never lost.
   */
  type Write = { run: (tx: Tx) => Promise<boolean>; done: (v: boolean) => void; fail: (e: unknown) => void };
  let writes: Write[] = [];
  let writing: Promise<void> | undefined;
  function record(run: Write['run']): Promise<boolean> {
    return new Promise<boolean>((done, fail) => {
      writes.push({ run, done, fail });
      if (!writing) writing = flush();
    });
  }
  async function flush(): Promise<void> {
    while (writes.length > 0) {
      const batch = writes;
      writes = [];
      try {
        const results = await db.transaction(async (tx) => {
          const out: boolean[] = [];
          for (const w of batch) out.push(await w.run(tx));
          return out;
        });
        batch.forEach((w, i) => {
          w.done(results[i] ?? false);
        });
      } catch (error) {
        for (const w of batch) w.fail(error);
      }
    }
    writing = undefined;
  }

  /** A success clears the failing streak; a failure starts it, and disables the endpoint once it is too long. */
  async function recordHealth(tx: DbOrTx, endpointId: number, success: boolean): Promise<boolean> {
    if (success) {
      await tx
        .update(webhookEndpoints)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoints.id, endpointId), isNotNull(webhookEndpoints.failingSince)));
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

  return {
    start: loop.start,
    async stop() {
      await loop.stop();
      await attempts.settled();
    },
    kick: loop.kick,
    runOnce: () => attempts.runOnce(pump),
    attemptNow: (deliveryId) => attempt(deliveryId, true),
  };
}
