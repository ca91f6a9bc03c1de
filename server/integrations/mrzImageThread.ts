/**
 * The MRZ image thread (`mrzImageThreaded.ts` starts it): finding the zone's band in a frame and enlarging a
 * narrow frame (tens to hundreds of milliseconds of pixel loops) run here, never in the server's event loop.
 * Each message is answered with one reply of the same id.
 */
import { parentPort } from 'node:worker_threads';
import { mrzBand, prepareForOcr } from './mrzImage';

const port = parentPort;
if (!port) throw new Error('mrzImageThread runs in a worker thread');
port.on('message', (request: { id: number; image: Uint8Array; alsoAt: number[] }) => {
  try {
    const image = Buffer.from(request.image);
    const band = mrzBand(image, request.alsoAt);
    const bands = band ? [{ png: band.png, cells: band.cells }, ...band.alsoAt] : [];
    const checked = band?.checkedAt ?? [];
    port.postMessage({ id: request.id, bands, checked, frame: prepareForOcr(image) });
  } catch (error) {
    port.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
