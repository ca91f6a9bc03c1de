/**
 * The face model's thread (`faceMatchThreaded.ts` starts it): the shipped face matcher, run here so that finding
 * and comparing faces (half a second to two seconds of WebAssembly) never holds up the server's event loop.
 * Each `compare` message is answered with one reply of the same id.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createHumanFaceMatcher } from './faceMatch';

interface Request {
  id: number;
  reference: Uint8Array;
  probe: Uint8Array;
}

const port = parentPort;
if (!port) throw new Error('faceMatchThread runs in a worker thread');
const matcher = createHumanFaceMatcher({
  minSimilarity: (workerData as { minSimilarity: number }).minSimilarity,
  onError: (error) => port.postMessage({ loadError: error instanceof Error ? error.message : String(error) }),
});
port.on('message', async (request: Request) => {
  try {
    const result = await matcher.compare(Buffer.from(request.reference), Buffer.from(request.probe));
    port.postMessage({ id: request.id, result });
  } catch (error) {
    port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
port.postMessage({ ready: true });
