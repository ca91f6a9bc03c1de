/**
 * The database thread (docs/decisions/0183-pglite-in-a-thread.md): the server's PGlite, run in a worker thread of its own so that its
 * queries (WebAssembly, half of a list request's CPU) run on one core while the requests are answered on the
 * other. `pgliteRemote.ts` starts it and speaks to it; this side answers each message with one reply, in order.
 *
 * Messages: `query`/`exec` (in transaction `tx` when given), `begin` (answers the transaction's number once it
 * has begun), `end` (commits or rolls back), `listen` (notifications are posted as they come, before the
 * reply of the statement that committed them), `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS, readDatesAsText, withPreparedStatements } from './pglite';
import type { ThreadReply, ThreadRequest } from './pgliteRemote';

/** Thrown into a transaction's callback to roll it back. */
const ROLLBACK = Symbol('rollback');

interface OpenTransaction {
  tx: Transaction;
  end(commit: boolean): void;
  /** Settles once PGlite has committed or rolled back. */
  done: Promise<unknown>;
}

/** An error as plain data: its message, name and PostgreSQL's fields (code, detail, constraint, …). */
function plainError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields: Record<string, unknown> = { message: error.message, name: error.name };
  for (const [key, value] of Object.entries(error))
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  return fields;
}

async function main() {
  const port = parentPort;
  if (!port) throw new Error('pgliteThread.ts runs as a worker thread');
  const { dir } = workerData as { dir: string };
  const client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  readDatesAsText(client);
  const prepared = withPreparedStatements(client);
  const transactions = new Map<number, OpenTransaction>();
  let lastTransaction = 0;

  const transactionOf = (id: number | undefined) => {
    if (id === undefined) return undefined;
    const open = transactions.get(id);
    if (!open) throw new Error(`transaction ${id} is not open`);
    return open;
  };

  const begin = async (): Promise<number> => {
    const id = ++lastTransaction;
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let end!: (commit: boolean) => void;
    const ended = new Promise<boolean>((resolve) => {
      end = resolve;
    });
    const done = prepared.transaction(async (tx) => {
      transactions.set(id, { tx, end, done });
      entered();
      if (!(await ended)) throw ROLLBACK;
    });
    // BEGIN itself may fail: then the callback never runs.
    await Promise.race([inside, done]);
    return id;
  };

  const finish = async (id: number, commit: boolean) => {
    const open = transactionOf(id);
    if (!open) return;
    open.end(commit);
    try {
      await open.done;
    } catch (error) {
      if (error !== ROLLBACK) throw error;
    } finally {
      transactions.delete(id);
    }
  };

  const answer = async (request: ThreadRequest): Promise<unknown> => {
    switch (request.op) {
      case 'query': {
        const options = request.options as QueryOptions | undefined;
        const on = transactionOf(request.tx)?.tx ?? prepared;
        return on.query(request.text, request.params, options);
      }
      case 'exec':
        return (transactionOf(request.tx)?.tx ?? client).exec(
          request.text,
          request.options as QueryOptions | undefined,
        );
      case 'begin':
        return begin();
      case 'end':
        return finish(request.tx, request.commit);
      case 'listen':
        await client.listen(request.channel, (payload) =>
          port.postMessage({ notify: request.channel, payload } satisfies ThreadReply),
        );
        return undefined;
      case 'dump':
        // PGlite takes it between two queries; a restore replays the write-ahead log it holds, as after a crash.
        return new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer());
      case 'close':
        await client.close();
        return undefined;
    }
  };

  port.on('message', (request: ThreadRequest) => {
    answer(request).then(
      (result) => port.postMessage({ id: request.id, result } satisfies ThreadReply),
      (error: unknown) =>
        port.postMessage({ id: request.id, error: plainError(error) } satisfies ThreadReply),
    );
  });
  port.postMessage({ ready: true } satisfies ThreadReply);
}

main().catch((error: unknown) => {
  parentPort?.postMessage({ failed: plainError(error) } satisfies ThreadReply);
});
