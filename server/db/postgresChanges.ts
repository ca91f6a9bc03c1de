import pg from 'pg';
import { type Change, type Changes, changeOf } from './changes';

/** The waits before the listening connection tries again after it dropped, the last one repeated. */
const RECONNECT_MS = [100, 250, 500, 1_000, 2_000, 5_000];

/** The `application_name` of the listening connection (so an operator, or a test, can find it). */
export const CHANGE_FEED_APPLICATION = 'idv-change-feed';

export interface ChangeFeed {
  /** The changes told on `channel` (one of those the feed was made with). */
  changes(channel: string): Changes;
  /** The pool's `onConnect`: a new pooled connection LISTENs before it is handed out. Never fails. */
  onConnect(client: pg.ClientBase): Promise<void>;
  close(): Promise<void>;
}

interface Subscriber {
  changed(change: Change): void;
  blind?(isBlind: boolean): void;
}

/**
 * PostgreSQL's changes (docs/decisions/0180-postgresql-tells-what-changed.md). Every pooled connection (the pool's `onConnect` is the feed's) LISTENs on
 * `channels` and tells the notifications of its own transactions: PostgreSQL sends them to the session before the
 * answer to its COMMIT, so a write of this process is told before the writer's own await goes on, as on PGlite. A
 * connection of the feed's own LISTENs all the time and tells the rest (the other processes' writes, a moment after
 * their commit): each change is told once. While that connection is down (PostgreSQL restarted, the network cut),
 * changes may go untold: the subscribers are blind until it is back.
 */
export async function createChangeFeed(
  connection: pg.ClientConfig,
  channels: readonly string[],
  onError: (error: unknown) => void = () => undefined,
): Promise<ChangeFeed> {
  const subscribers = new Map<string, Set<Subscriber>>(channels.map((channel) => [channel, new Set()]));
  const tell = (message: pg.Notification) => {
    for (const subscriber of subscribers.get(message.channel) ?? [])
      subscriber.changed(changeOf(message.payload ?? ''));
  };
  const listenAll = channels.map((channel) => `LISTEN ${pg.escapeIdentifier(channel)}`).join('; ');
  // The backends of the pool's connections that listen: what they send, they tell themselves.
  const pooled = new Set<number>();
  const onConnect = async (client: pg.ClientBase) => {
    const backend = (client as unknown as { processID: number }).processID;
    client.on('notification', (message) => {
      if (message.processId === backend) tell(message);
    });
    client.on('end', () => pooled.delete(backend));
    try {
      await client.query(listenAll);
      pooled.add(backend);
    } catch (error) {
      // The feed's own connection tells what this one sends, a moment later.
      onError(error);
    }
  };

  let heard = false;
  let closed = false;
  let own: pg.Client | null = null;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  const setHeard = (value: boolean) => {
    if (heard === value) return;
    heard = value;
    for (const set of subscribers.values()) for (const subscriber of set) subscriber.blind?.(!value);
  };
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ ...connection, application_name: CHANGE_FEED_APPLICATION });
    own = client;
    const lost = (error?: unknown) => {
      if (own !== client) return;
      own = null;
      setHeard(false);
      if (error) onError(error);
      client.end().catch(() => undefined);
      if (closed) return;
      const wait = RECONNECT_MS[Math.min(failures, RECONNECT_MS.length - 1)] ?? 5_000;
      failures += 1;
      retry = setTimeout(() => void connect().catch(() => undefined), wait);
    };
    client.on('notification', (message) => {
      if (!pooled.has(message.processId)) tell(message);
    });
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(listenAll);
    } catch (error) {
      lost(error);
      throw error;
    }
    if (own !== client) return;
    failures = 0;
    setHeard(true);
  };
  // The first connection must work (PostgreSQL was just reachable): no retries behind a failed start.
  try {
    await connect();
  } catch (error) {
    closed = true;
    clearTimeout(retry);
    throw error;
  }

  return {
    onConnect,
    changes: (channel) => ({
      async listen(changed, blind) {
        const set = subscribers.get(channel);
        if (!set) throw new Error(`the change feed does not listen on ${channel}`);
        const subscriber: Subscriber = { changed, blind };
        set.add(subscriber);
        if (!heard) blind?.(true);
        return async () => {
          set.delete(subscriber);
        };
      },
    }),
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = own;
      own = null;
      await client?.end().catch(() => undefined);
    },
  };
}
