/**
 * The fake camera's video of a drawn document (YUV4MPEG2, I420): the header Chromium reads, one plane of each
 * size a frame, and the colours of BT.601 studio range.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { y4mOf } from '../../scripts/sampleDocuments';

/** A PNG of `width` × `height` whose left half is pure red and right half pure white. */
function redAndWhite(width: number, height: number): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 4;
      const white = x >= width / 2;
      png.data[at] = 255;
      png.data[at + 1] = white ? 255 : 0;
      png.data[at + 2] = white ? 255 : 0;
      png.data[at + 3] = 255;
    }
  return PNG.sync.write(png);
}

describe('a document as a Y4M video', () => {
  it('holds the header and the asked number of I420 frames', () => {
    const video = y4mOf(redAndWhite(8, 4), 3);
    const header = 'YUV4MPEG2 W8 H4 F30:1 Ip A1:1 C420jpeg\n';
    expect(video.subarray(0, header.length).toString()).toBe(header);
    const frame = 'FRAME\n'.length + 8 * 4 + 2 * (4 * 2);
    expect(video.length).toBe(header.length + 3 * frame);
    for (let i = 0; i < 3; i++)
      expect(video.subarray(header.length + i * frame, header.length + i * frame + 6).toString()).toBe(
        'FRAME\n',
      );
  });

  it('converts red and white to their studio-range luma and chroma', () => {
    const video = y4mOf(redAndWhite(8, 4), 1);
    const planes = video.subarray(video.indexOf('FRAME\n') + 6);
    const y = planes.subarray(0, 32);
    const u = planes.subarray(32, 40);
    const v = planes.subarray(40, 48);
    // Red: Y 82, U 90, V 240; white: Y 235, U and V 128 (BT.601, 16–235 and 16–240).
    expect([y[0], y[7]]).toEqual([82, 235]);
    expect([u[0], v[0]]).toEqual([90, 240]);
    expect([u[3], v[3]]).toEqual([128, 128]);
  });

  it('refuses an odd size, which 4:2:0 cannot halve', () => {
    expect(() => y4mOf(redAndWhite(7, 4))).toThrow(/even/);
  });
});
