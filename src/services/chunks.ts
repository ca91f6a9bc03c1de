/**
 * Loading of on-demand chunks: screens and languages (time-out 120000 ms; ChunkLoadError,
 * CSS_CHUNK_LOAD_FAILED for a style chunk).
 */
export const CHUNK_TIMEOUT_MS = 120_000;

export type ChunkFailure = 'CHUNK_LOAD_FAILED' | 'CHUNK_LOAD_TIMEOUT' | 'CSS_CHUNK_LOAD_FAILED';

export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  constructor(
    readonly code: ChunkFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isChunkLoadError = (error: unknown): error is ChunkLoadError => error instanceof ChunkLoadError;

/** Vite rejects a dynamic import whose stylesheet cannot be preloaded with "Unable to preload CSS for …". */
const isStyleFailure = (error: unknown) => error instanceof Error && /preload CSS/i.test(error.message);

/** Runs `load`; any failure, or no answer within `timeoutMs`, becomes a ChunkLoadError. */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError('CHUNK_LOAD_TIMEOUT', `Loading chunk timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    let started: Promise<T>;
    try {
      started = load();
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (isChunkLoadError(error)) return reject(error);
        const code = isStyleFailure(error) ? 'CSS_CHUNK_LOAD_FAILED' : 'CHUNK_LOAD_FAILED';
        const message = error instanceof Error ? error.message : String(error);
        reject(new ChunkLoadError(code, message, { cause: error }));
      },
    );
  });
}
