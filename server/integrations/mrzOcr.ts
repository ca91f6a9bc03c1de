import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { PNG } from 'pngjs';
import type { CheckEngine } from '#contract/machineChecks';
import { decodeImage } from './images';

/**
 * Reads the text of a document image for its machine-readable zone. `null`: this server cannot read (no engine,
 * or it failed to load); the check then says so instead of guessing.
 */
export interface MrzOcr {
  readonly engine: CheckEngine;
  read(image: Buffer): Promise<{ text: string; confidence: number } | null>;
  close(): Promise<void>;
}

export const unavailableMrzOcr = (): MrzOcr => ({
  engine: { name: 'none', version: '0' },
  read: async () => null,
  close: async () => undefined,
});

const require = createRequire(import.meta.url);

/** Frames narrower than this are enlarged to OCR_WIDTH before reading (a call on a poor link sends 480 or 320). */
const NARROW = 600;
const OCR_WIDTH = 1280;

/**
 * The image as the engine reads it: a frame narrower than NARROW enlarged (bilinear, grey) to OCR_WIDTH, others
 * as they are. On a poor link the agent receives 480 or 320 pixels, where a passport's zone has characters of 10
 * pixels or less: enlarged, the engine found the zone in 11–12 of 16 such frames instead of 10. Frames of 640
 * read no better enlarged and only cost the time. A PNG, so nothing is lost twice.
 */
export function prepareForOcr(bytes: Buffer): Buffer {
  const image = decodeImage(bytes);
  if (image.width >= NARROW) return bytes;
  const scale = OCR_WIDTH / image.width;
  const width = Math.round(image.width * scale);
  const height = Math.round(image.height * scale);
  const grey = new Uint8Array(image.width * image.height);
  for (let i = 0, j = 0; i < grey.length; i++, j += 3)
    grey[i] =
      (299 * (image.data[j] as number) +
        587 * (image.data[j + 1] as number) +
        114 * (image.data[j + 2] as number)) /
      1000;
  const out = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1, (y + 0.5) / scale - 0.5);
    const y0 = Math.max(0, Math.floor(sy));
    const y1 = Math.min(image.height - 1, y0 + 1);
    const fy = Math.max(0, sy - y0);
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1, (x + 0.5) / scale - 0.5);
      const x0 = Math.max(0, Math.floor(sx));
      const x1 = Math.min(image.width - 1, x0 + 1);
      const fx = Math.max(0, sx - x0);
      const top =
        (grey[y0 * image.width + x0] as number) * (1 - fx) + (grey[y0 * image.width + x1] as number) * fx;
      const bottom =
        (grey[y1 * image.width + x0] as number) * (1 - fx) + (grey[y1 * image.width + x1] as number) * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy;
    }
  }
  const png = new PNG({ width, height, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = out;
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false });
}

interface TesseractWorker {
  setParameters(params: Record<string, string>): Promise<unknown>;
  recognize(
    image: Buffer,
    options?: { rotateAuto?: boolean },
  ): Promise<{ data: { text: string; confidence: number } }>;
  terminate(): Promise<unknown>;
}

/**
 * tesseract.js (Tesseract 5's LSTM engine in WebAssembly) with the English model of `@tesseract.js-data/eng`,
 * read from node_modules: nothing is downloaded and nothing cached on disk. tesseract.js runs the engine in a
 * worker thread of its own, so a recognition (about a second) never holds up the server's event loop, and with
 * it the call's signalling. Only the MRZ's characters are allowed, which is what makes a general model read it
 * well. Started on first use; one recognition at a time (the worker is single-threaded anyway).
 */
export function createTesseractMrzOcr(options: { onError?: (error: unknown) => void } = {}): MrzOcr {
  const tesseractVersion = (require('tesseract.js/package.json') as { version: string }).version;
  const data = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
  const dataVersion = (require('@tesseract.js-data/eng/package.json') as { version: string }).version;
  let worker: Promise<TesseractWorker | null> | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  async function start(): Promise<TesseractWorker | null> {
    try {
      const { createWorker, OEM, PSM } = (await import('tesseract.js')).default;
      const w = (await createWorker('eng', OEM.LSTM_ONLY, {
        langPath: data.langPath,
        gzip: data.gzip,
        cacheMethod: 'none',
        corePath: dirname(require.resolve('tesseract.js-core/package.json')),
        errorHandler: options.onError,
      })) as unknown as TesseractWorker;
      await w.setParameters({
        tessedit_char_whitelist: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<',
        tessedit_pageseg_mode: PSM.SPARSE_TEXT,
        preserve_interword_spaces: '0',
      });
      return w;
    } catch (error) {
      options.onError?.(error);
      return null;
    }
  }

  return {
    engine: { name: 'tesseract.js', version: `${tesseractVersion} (eng ${dataVersion}, LSTM)` },
    read(image) {
      const run = queue.then(async () => {
        worker ??= start();
        const w = await worker;
        if (!w) return null;
        // A card held to a camera is seldom straight: the engine measures the skew and reads the image turned.
        const { data: result } = await w.recognize(prepareForOcr(image), { rotateAuto: true });
        return { text: result.text, confidence: result.confidence };
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      const w = await worker;
      worker = null;
      await w?.terminate();
    },
  };
}
