import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BandImage } from './mrzImage';

const THREAD_ENTRY = new URL('./mrzImageThread.ts', import.meta.url).href;
// createRequire: Vitest's module runner has no import.meta.resolve.
const TSX_API = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api')).href;
/** As the face model's thread starts (faceMatchThreaded.ts): register tsx, then import the entry. */
const BOOTSTRAP = `import(${JSON.stringify(TSX_API)})
  .then(({ register }) => { register(); return import(${JSON.stringify(THREAD_ENTRY)}); })`;

/**
 * A frame made ready for the engine: the zone's band at its usual glyph height, then at each other height asked
 * (empty when no zone was found); the band's lines with check digits alone at the other heights; the whole frame.
 */
export interface PreparedFrame {
  bands: BandImage[];
  checked: BandImage[];
  frame: Buffer;
}

/** A band as it comes out of the thread: its PNG's bytes arrive as a plain Uint8Array. */
type Posted = Omit<BandImage, 'png'> & { png: Uint8Array };
const asBand = (band: Posted): BandImage => ({ png: Buffer.from(band.png), cells: band.cells });

type Reply =
  | { id: number; bands: Posted[]; checked: Posted[]; frame: Uint8Array }
  | { id: number; error: string };

/**
 * `mrzImage.ts` in a worker thread of its own, started on first use and kept only while a frame waits for it:
 * the server's requests and the call's signalling go on while a frame is prepared. A thread that dies fails the
 * frames waiting; the next frame starts a new one.
 */
export function createMrzImageThread(): {
  prepare(image: Buffer, alsoAt?: readonly number[]): Promise<PreparedFrame>;
  close(): Promise<void>;
} {
  let worker: Worker | null = null;
  let lastId = 0;
  const pending = new Map<number, { resolve: (f: PreparedFrame) => void; reject: (e: Error) => void }>();
  const failAll = (reason: string) => {
    for (const waiting of pending.values()) waiting.reject(new Error(reason));
    pending.clear();
  };
  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(BOOTSTRAP, { eval: true, execArgv: [] });
    started.on('message', (reply: Reply) => {
      const waiting = pending.get(reply.id);
      pending.delete(reply.id);
      if ('error' in reply) waiting?.reject(new Error(reply.error));
      else
        waiting?.resolve({
          bands: reply.bands.map(asBand),
          checked: reply.checked.map(asBand),
          frame: Buffer.from(reply.frame),
        });
      if (pending.size === 0) started.unref();
    });
    started.on('error', () => failAll('the MRZ image thread failed'));
    started.on('exit', () => {
      if (worker === started) worker = null;
      failAll('the MRZ image thread stopped');
    });
    worker = started;
    return started;
  }
  return {
    prepare(image, alsoAt = []) {
      const id = ++lastId;
      return new Promise<PreparedFrame>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        const target = thread();
        target.ref();
        target.postMessage({ id, image, alsoAt });
      });
    },
    async close() {
      const running = worker;
      worker = null;
      await running?.terminate();
    },
  };
}
