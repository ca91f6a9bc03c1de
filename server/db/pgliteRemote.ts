/**
 * The server's PGlite in a thread of its own (docs/decisions/0183-pglite-in-a-thread.md, the thread's side is `pgliteThread.ts`). The
 * client here has what drizzle, the migrations and the change feeds use of a PGlite (`query`, `exec`,
 * `transaction`, `listen`, `close`); every call is one message to the thread and one reply, and the
 * thread runs them on its PGlite exactly as an in-process client would (its own queueing, prepared statements,
 * transactions). A notification arrives before the reply of the statement that committed it, as in process.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { RAW_TEXT_PARSERS, withoutRedundantParsers } from './pglite';

/** What the thread is asked: one call, answered by one reply with the same id. */
type ThreadCall =
  | { op: 'query'; text: string; params?: unknown[]; options?: QueryOptions; tx?: number }
  | { op: 'exec'; text: string; options?: QueryOptions; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'dump' }
  | { op: 'close' };
export type ThreadRequest = ThreadCall & { id: number };

/** What the thread posts: a call's result or error, a notification, or that it is ready or failed to open. */
export type ThreadReply =
  | { id: number; result: unknown }
  | { id: number; error: Record<string, unknown> }
  | { notify: string; payload: string }
  | { ready: true }
  | { failed: Record<string, unknown> };

/** The statements of one transaction. */
export interface ThreadTransaction {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string, options?: QueryOptions): Promise<Results[]>;
}

export interface PgliteThread extends ThreadTransaction {
  transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  /** The data folder as a gzipped tarball, taken between two statements (a backup of the running server). */
  dumpDataDir(compression: 'gzip'): Promise<Uint8Array>;
  close(): Promise<void>;
}

const THREAD_ENTRY = new URL('./pgliteThread.ts', import.meta.url).href;
// createRequire: Vitest's module runner has no import.meta.resolve.
const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;

/**
 * The thread's first module: it registers tsx (the server's TypeScript runs through it), then imports the entry.
 * The thread starts without the process's Node options (`execArgv: []`): whether a thread inherits tsx's loader
 * differs between the tsx command, `node --import tsx`, Vitest and Node 20 or 24, and registering it twice fails.
 */
const BOOTSTRAP = `import(${JSON.stringify(TSX_API)})
  .then(({ register }) => { register(); return import(${JSON.stringify(THREAD_ENTRY)}); })`;

/** The thread's error as an Error of this thread, with PostgreSQL's fields (code, detail, …). */
function errorOf(fields: Record<string, unknown>): Error {
  return Object.assign(new Error(String(fields.message)), fields);
}

/** Options as they can cross to the thread: drizzle's raw-text parsers are the thread's own already. */
function sendable(options: QueryOptions | undefined): QueryOptions | undefined {
  const sent = withoutRedundantParsers(RAW_TEXT_PARSERS, options);
  if (sent === null)
    throw new Error('a query with type parsers of its own cannot run in the database thread');
  return sent;
}

/** Starts PGlite on `dir` in a thread of its own; resolves once it is open. */
export async function openPgliteThread(dir: string): Promise<PgliteThread> {
  const worker = new Worker(BOOTSTRAP, {
    eval: true,
    execArgv: [],
    workerData: { dir },
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let lastId = 0;
  let stopped: Error | undefined;
  let opened!: { resolve(): void; reject(error: Error): void };
  const open = new Promise<void>((resolve, reject) => {
    opened = { resolve, reject };
  });

  const stop = (error: Error) => {
    stopped ??= error;
    opened.reject(error);
    for (const call of pending.values()) call.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: ThreadReply) => {
    if ('notify' in reply) {
      for (const listener of listeners.get(reply.notify) ?? []) listener(reply.payload);
    } else if ('ready' in reply) {
      opened.resolve();
    } else if ('failed' in reply) {
      stop(errorOf(reply.failed));
      void worker.terminate();
    } else {
      const call = pending.get(reply.id);
      pending.delete(reply.id);
      // Idle, the thread does not keep the process alive (as an in-process PGlite does not).
      if (pending.size === 0) worker.unref();
      if ('error' in reply) call?.reject(errorOf(reply.error));
      else call?.resolve(reply.result);
    }
  });
  worker.on('error', stop);
  worker.on('exit', (code) => stop(new Error(`the database thread stopped (exit code ${code})`)));

  const call = <T>(request: ThreadCall): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (stopped) return reject(stopped);
      const id = ++lastId;
      worker.postMessage({ ...request, id } satisfies ThreadRequest);
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
    });

  const statements = (tx?: number): ThreadTransaction => ({
    query: async (text, params, options) =>
      call({ op: 'query', text, params, options: sendable(options), tx }),
    exec: async (text, options) => call({ op: 'exec', text, options: sendable(options), tx }),
  });

  try {
    await open;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  worker.unref();
  return {
    ...statements(),
    async transaction<T>(callback: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
      const tx = await call<number>({ op: 'begin' });
      let result: T;
      try {
        result = await callback(statements(tx));
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return result;
    },
    async listen(channel, callback) {
      let channelListeners = listeners.get(channel);
      if (!channelListeners) {
        channelListeners = new Set();
        listeners.set(channel, channelListeners);
        await call({ op: 'listen', channel });
      }
      channelListeners.add(callback);
      return async () => {
        channelListeners.delete(callback);
      };
    },
    dumpDataDir: () => call<Uint8Array>({ op: 'dump' }),
    async close() {
      if (stopped) return;
      await call({ op: 'close' });
      stopped = new Error('the database is closed');
      await worker.terminate();
    },
  };
}
