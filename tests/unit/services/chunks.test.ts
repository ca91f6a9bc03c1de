import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, loadChunk } from '../../../src/services/chunks';

afterEach(() => vi.useRealTimers());

const rejection = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as ChunkLoadError;
  }
  throw new Error('expected a rejection');
};

describe('loadChunk', () => {
  it('resolves with the loaded module', async () => {
    await expect(loadChunk(async () => ({ Screen: 1 }))).resolves.toEqual({ Screen: 1 });
  });

  it('turns a failed load into ChunkLoadError', async () => {
    const error = await rejection(
      loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))),
    );
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error.name).toBe('ChunkLoadError');
    expect(error.code).toBe('CHUNK_LOAD_FAILED');
  });

  it('turns a missing chunk (a loader that throws) into ChunkLoadError', async () => {
    const error = await rejection(
      loadChunk(() => {
        throw new Error('no such chunk');
      }),
    );
    expect(error.code).toBe('CHUNK_LOAD_FAILED');
  });

  it('turns a failed style chunk into CSS_CHUNK_LOAD_FAILED', async () => {
    const error = await rejection(
      loadChunk(() => Promise.reject(new Error('Unable to preload CSS for /assets/x.css'))),
    );
    expect(error.name).toBe('ChunkLoadError');
    expect(error.code).toBe('CSS_CHUNK_LOAD_FAILED');
  });

  it('fails with ChunkLoadError after 120000 ms without an answer, not before', async () => {
    vi.useFakeTimers();
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
    const settled = vi.fn();
    const pending = loadChunk(() => new Promise(() => {})).catch((error: ChunkLoadError) => {
      settled(error.code);
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await pending;
    expect(settled).toHaveBeenCalledWith('CHUNK_LOAD_TIMEOUT');
  });
});
