import { afterEach, describe, expect, it, vi } from 'vitest';
import { frameOf } from '../../src/shared/videoFrame';

/** A video element as far as a capture reads it. */
const video = (videoWidth: number) => ({ videoWidth, videoHeight: 480 }) as HTMLVideoElement;

describe('frameOf', () => {
  afterEach(() => vi.restoreAllMocks());

  function canvasDrawing() {
    const drawn: HTMLVideoElement[] = [];
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({
      drawImage: (source: HTMLVideoElement) => drawn.push(source),
    } as unknown as CanvasRenderingContext2D);
    vi.spyOn(HTMLCanvasElement.prototype, 'toBlob').mockImplementation((callback) =>
      callback(new Blob(['jpeg'], { type: 'image/jpeg' })),
    );
    return drawn;
  }

  it('captures at once a video that shows a frame', async () => {
    const drawn = canvasDrawing();
    const shown = video(640);
    expect(await frameOf(() => shown)).toBeInstanceOf(Blob);
    expect(drawn).toEqual([shown]);
  });

  it('waits for the element that shows a frame, when the one first found shows nothing yet', async () => {
    const drawn = canvasDrawing();
    const blank = video(0);
    const replaced = video(640);
    let current: HTMLVideoElement | null = blank;
    setTimeout(() => {
      current = null;
    }, 60);
    setTimeout(() => {
      current = replaced;
    }, 150);
    expect(await frameOf(() => current, 2_000)).toBeInstanceOf(Blob);
    expect(drawn).toEqual([replaced]);
  });

  it('gives up with null when nothing shows a frame in time', async () => {
    const drawn = canvasDrawing();
    const started = Date.now();
    expect(await frameOf(() => video(0), 200)).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(drawn).toEqual([]);
  });
});
