import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FaceComparison, FaceMatcher } from './faceMatch';

const THREAD_ENTRY = new URL('./faceMatchThread.ts', import.meta.url).href;
// createRequire: Vitest's module runner has no import.meta.resolve.
const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
/** As the database thread starts (server/db/pgliteRemote.ts): register tsx, then import the entry. */
const BOOTSTRAP = `import(${JSON.stringify(TSX_API)})
  .then(({ register }) => { register(); return import(${JSON.stringify(THREAD_ENTRY)}); })`;

type Reply =
  | { ready: true }
  | { loadError: string }
  | { id: number; result: FaceComparison }
  | { id: number; error: string };

/**
 * The shipped face matcher (`createHumanFaceMatcher`) in a worker thread of its own, started on first use: the
 * server's requests and sockets go on while it works. Its model is a second copy beside photo sign-in's (tens of
 * MB), paid only by a server whose agents take screenshots. A thread that dies answers `unavailable` and the next
 * comparison starts a new one. `close` stops it.
 */
export function createThreadedFaceMatcher(options: {
  minSimilarity: number;
  onError?: (error: unknown) => void;
}): FaceMatcher & { close(): Promise<void> } {
  let worker: Worker | null = null;
  let lastId = 0;
  const pending = new Map<number, (result: FaceComparison) => void>();

  const failAll = (reason: string) => {
    for (const settle of pending.values()) settle({ outcome: 'unavailable', reason });
    pending.clear();
  };

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(BOOTSTRAP, {
      eval: true,
      execArgv: [],
      workerData: { minSimilarity: options.minSimilarity },
    });
    started.on('message', (reply: Reply) => {
      if ('loadError' in reply) options.onError?.(new Error(reply.loadError));
      if (!('id' in reply)) return;
      const settle = pending.get(reply.id);
      pending.delete(reply.id);
      settle?.('result' in reply ? reply.result : { outcome: 'unavailable', reason: reply.error });
      if (pending.size === 0) started.unref();
    });
    started.on('error', (error) => {
      options.onError?.(error);
      failAll('the face model thread failed');
    });
    started.on('exit', () => {
      if (worker === started) worker = null;
      failAll('the face model thread stopped');
    });
    worker = started;
    return started;
  }

  return {
    compare(reference, probe) {
      const id = ++lastId;
      return new Promise<FaceComparison>((resolve) => {
        pending.set(id, resolve);
        // The thread keeps the process alive only while a comparison waits for it.
        const target = thread();
        target.ref();
        target.postMessage({ id, reference, probe });
      });
    },
    async close() {
      const running = worker;
      worker = null;
      await running?.terminate();
    },
  };
}
