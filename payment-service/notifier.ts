import { signedHeaders } from '../server/integrations/webhooks/signer';
import { type CheckoutSession, newEventId } from './sessions';

export type EventType =
  | 'checkout.session.completed'
  | 'checkout.session.payment_failed'
  | 'checkout.session.expired';

export interface PaymentEvent {
  id: string;
  object: 'event';
  type: EventType;
  /** Unix seconds. */
  created: number;
  data: { object: CheckoutSession };
}

/** Sends one signed request; answers the HTTP status (0: no answer). Tests replace it. */
export type Deliver = (url: string, body: string, headers: Record<string, string>) => Promise<number>;

export const fetchDeliver: Deliver = async (url, body, headers) => {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
};

export interface Notifier {
  /** Queues the event and tries it at once; failed attempts are retried on the schedule. */
  send(type: EventType, session: CheckoutSession): PaymentEvent;
  /** Resolves when no attempt is running or due now (tests). */
  idle(): Promise<void>;
  /** Every event sent, oldest first (tests and the dev listing). */
  sent(): { event: PaymentEvent; attempts: number[]; delivered: boolean }[];
  stop(): void;
}

/**
 * Signed server-to-server notifications (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`). Each attempt is signed again with its own timestamp and keeps the event's id, so
 * the receiver can tell a retry from a new event. 2xx ends the retries, and so does 409 (the receiver
 * already applied that id). A real provider keeps this queue durably; the stand-in keeps it in memory.
 */
export function createNotifier(options: {
  url: string;
  secret: string;
  /** Seconds before each retry. */
  retrySchedule: number[];
  now: () => number;
  deliver?: Deliver;
  onError?: (message: string) => void;
}): Notifier {
  const deliver = options.deliver ?? fetchDeliver;
  const log: { event: PaymentEvent; attempts: number[]; delivered: boolean }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const attempt = (entry: (typeof log)[number]) => {
    const body = JSON.stringify(entry.event);
    const run = (async () => {
      const status = await deliver(
        options.url,
        body,
        signedHeaders([options.secret], entry.event.id, Math.floor(options.now() / 1000), body),
      );
      entry.attempts.push(status);
      if ((status >= 200 && status < 300) || status === 409) {
        entry.delivered = true;
        return;
      }
      const delay = options.retrySchedule[entry.attempts.length - 1];
      if (delay === undefined || stopped) {
        options.onError?.(`notification ${entry.event.id} gave up after ${entry.attempts.length} attempts`);
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        attempt(entry);
      }, delay * 1000);
      timer.unref();
      timers.add(timer);
    })();
    running.add(run);
    void run.finally(() => running.delete(run));
  };

  return {
    send(type, session) {
      const event: PaymentEvent = {
        id: newEventId(),
        object: 'event',
        type,
        created: Math.floor(options.now() / 1000),
        data: { object: session },
      };
      const entry = { event, attempts: [] as number[], delivered: false };
      log.push(entry);
      attempt(entry);
      return event;
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running]);
    },
    sent: () => log,
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
