import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { CheckEngine } from '#contract/machineChecks';
import { findMrzLines, parseMrz, readMrz, withCheckedLinesFrom } from '../domain/machineChecks/mrz';
import { type BandImage, type ReadGlyph, zoneText } from './mrzImage';
import { createMrzImageThread } from './mrzImageThreaded';

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

/**
 * Glyph heights (pixels) the zone's lines with check digits are read again at when the zone read at the usual
 * height has a check digit that fails (the whole band, when the first reading found no zone). The engine's
 * misreads (8 as B, 5 as S, 9 as I, 0 as O or D, J as I or JI) change with the glyphs' size, so a second look
 * sometimes reads the zone right (measured from 16 to 32 px: 20 and 16 helped most, larger ones not at all).
 * A reading is taken over the first only when every check digit holds, the composite
 * included: a document whose number's check digit is really wrong would need a misread that makes two
 * independent check digits hold, about one in a hundred, to pass for a good one.
 */
export const REREAD_GLYPH_HEIGHTS: readonly number[] = [20, 16];

interface TesseractSymbol {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

interface TesseractWorker {
  setParameters(params: Record<string, string>): Promise<unknown>;
  recognize(
    image: Buffer,
    options?: { rotateAuto?: boolean },
    output?: { text?: boolean; blocks?: boolean },
  ): Promise<{
    data: {
      text: string;
      confidence: number;
      blocks?: { paragraphs: { lines: { words: { symbols: TesseractSymbol[] }[] }[] }[] }[] | null;
    };
  }>;
  terminate(): Promise<unknown>;
}

/** Every glyph of a recognition, with its box. */
const glyphsOf = (blocks: NonNullable<Awaited<ReturnType<TesseractWorker['recognize']>>['data']['blocks']>) =>
  blocks.flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.flatMap((line) =>
        line.words.flatMap((word) =>
          word.symbols.map((s): ReadGlyph => ({ text: s.text, confidence: s.confidence, ...s.bbox })),
        ),
      ),
    ),
  );

/**
 * tesseract.js (Tesseract 5's LSTM engine in WebAssembly) with the English model of `@tesseract.js-data/eng`,
 * read from node_modules: nothing is downloaded and nothing cached on disk. tesseract.js runs the engine in a
 * worker thread of its own, so a recognition (about a second) never holds up the server's event loop, and with
 * it the call's signalling. Only the MRZ's characters are allowed, which is what makes a general model read it
 * well. Started on first use; one recognition at a time (the worker is single-threaded anyway).
 */
export function createTesseractMrzOcr(
  options: { onError?: (error: unknown) => void; rereadAt?: readonly number[] } = {},
): MrzOcr {
  const rereadAt = options.rereadAt ?? REREAD_GLYPH_HEIGHTS;
  const tesseractVersion = (require('tesseract.js/package.json') as { version: string }).version;
  const data = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };
  const dataVersion = (require('@tesseract.js-data/eng/package.json') as { version: string }).version;
  let worker: Promise<TesseractWorker | null> | null = null;
  let modes = { block: '6', sparse: '11' };
  const images = createMrzImageThread();
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
        preserve_interword_spaces: '0',
      });
      modes = { block: PSM.SINGLE_BLOCK, sparse: PSM.SPARSE_TEXT };
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
        // First the zone's band alone, straightened, enlarged and contrast-stretched (`mrzImage.ts`), read as one
        // block of uniform text: what the engine reads best.
        const prepared = await images.prepare(image, rereadAt);
        const [band, ...wholeRereads] = prepared.bands;
        // A band whose fillers were told by shape (OCR-B) is read for its letters and digits only, each put in
        // its cell by where the engine saw it (`zoneText`); any other band as the engine reads it.
        const recognized = async ({ png, cells }: BandImage) => {
          await w.setParameters({ tessedit_pageseg_mode: modes.block });
          const { data: result } = await w.recognize(png, {}, { text: true, blocks: cells !== null });
          const text = cells && result.blocks ? zoneText(cells, glyphsOf(result.blocks)) : result.text;
          return { text, confidence: result.confidence };
        };
        const firstRead = band ? await recognized(band) : null;
        const lines = firstRead ? findMrzLines(firstRead.text) : null;
        const reading = lines && parseMrz(lines, new Date());
        if (firstRead && lines && reading) {
          if (reading.check_digits_hold) return firstRead;
          // A zone whose check digits fail: its lines with check digits are read again at other glyph heights,
          // the names line kept as first read, and the first reading whose check digits all hold is taken;
          // when none does, the first reading is.
          for (const checked of prepared.checked) {
            const again = await recognized(checked);
            const merged = withCheckedLinesFrom(lines, again.text);
            if (merged && parseMrz(merged, new Date())?.check_digits_hold)
              return {
                text: merged.join('\n'),
                confidence: Math.min(firstRead.confidence, again.confidence),
              };
          }
          return firstRead;
        }
        // No zone in the first reading: the whole band at the other heights; the first that parses is kept
        // unless a later one's check digits all hold.
        let first: { text: string; confidence: number } | null = null;
        for (const whole of wholeRereads) {
          const again = await recognized(whole);
          const parsed = readMrz(again.text, new Date());
          if (!parsed) continue;
          if (parsed.check_digits_hold) return again;
          first ??= again;
        }
        if (first) return first;
        // No band, or no zone read in it: the whole frame as sparse text, the engine measuring the skew and
        // reading the image turned (a card held to a camera is seldom straight).
        await w.setParameters({ tessedit_pageseg_mode: modes.sparse });
        const { data: result } = await w.recognize(prepared.frame, { rotateAuto: true });
        return { text: result.text, confidence: result.confidence };
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async close() {
      const w = await worker;
      worker = null;
      await Promise.all([w?.terminate(), images.close()]);
    },
  };
}
