/**
 * Finding the machine-readable zone in a camera frame: the band of its lines, straightened and enlarged for the
 * engine, on a drawn ID card's back, the same card turned a few degrees, and a frame without any print.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../server/integrations/images';
import { mrzBand, otsu } from '../../server/integrations/mrzImage';

const BACK = readFileSync(join(import.meta.dirname, '..', 'server', 'fixtures', 'id-card-back.jpg'));

/** The frame turned by `degrees` about its centre (bilinear, the corners filled with the desk's grey). */
function rotated(bytes: Buffer, degrees: number): Buffer {
  const image = decodeImage(bytes);
  const { width, height } = image;
  const png = new PNG({ width, height });
  const a = (degrees * Math.PI) / 180;
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const sx = Math.cos(a) * (x - cx) + Math.sin(a) * (y - cy) + cx;
      const sy = -Math.sin(a) * (x - cx) + Math.cos(a) * (y - cy) + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      for (let c = 0; c < 3; c++) {
        let v = 100;
        if (x0 >= 0 && y0 >= 0 && x0 + 1 < width && y0 + 1 < height) {
          const at = (xx: number, yy: number) => image.data[(yy * width + xx) * 3 + c] as number;
          const fx = sx - x0;
          const fy = sy - y0;
          v =
            (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) +
            (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy;
        }
        png.data[(y * width + x) * 4 + c] = Math.round(v);
      }
      png.data[(y * width + x) * 4 + 3] = 255;
    }
  return PNG.sync.write(png);
}

describe('the MRZ band of a frame', () => {
  it("finds the ID card's three lines, straight, at the glyph height the engine reads best", () => {
    const band = mrzBand(BACK);
    expect(band).not.toBeNull();
    expect(band?.lines).toBe(3);
    expect(Math.abs(band?.skew ?? 99)).toBeLessThanOrEqual(0.5);
    const png = PNG.sync.read(band?.png as Buffer);
    // Three lines of 30 characters: far wider than high, and enlarged from the frame's glyphs to about 22 px.
    expect(png.width).toBeGreaterThan(png.height * 3);
    expect(png.height).toBeGreaterThan(3 * 22);
  });

  it('samples the same band at the other glyph heights asked, for a second look', () => {
    const band = mrzBand(BACK, [28, 18]);
    const [usual, larger, smaller] = [band?.png, ...(band?.alsoAt ?? [])].map((png) =>
      PNG.sync.read(png as Buffer),
    );
    expect(band?.alsoAt).toHaveLength(2);
    // The same box, enlarged by the ratio of the glyph heights (within a pixel of rounding).
    expect(Math.abs((larger?.height ?? 0) - ((usual?.height ?? 0) * 28) / 22)).toBeLessThanOrEqual(1);
    expect(Math.abs((smaller?.width ?? 0) - ((usual?.width ?? 0) * 18) / 22)).toBeLessThanOrEqual(1);
  });

  it('samples the lines with check digits alone at those heights: two of the three lines, as wide', () => {
    const band = mrzBand(BACK, [28, 18]);
    expect(band?.checkedAt).toHaveLength(2);
    const [whole, checked] = [band?.alsoAt[0], band?.checkedAt[0]].map((png) => PNG.sync.read(png as Buffer));
    expect(checked?.width).toBe(whole?.width);
    // Two lines and their margins of the whole band's three: more than half, less than the whole.
    expect(checked?.height).toBeGreaterThan((whole?.height ?? 0) / 2);
    expect(checked?.height).toBeLessThan(((whole?.height ?? 0) * 5) / 6);
  });

  it.each([-3, 3])('measures and undoes a turn of %i degrees', (degrees) => {
    const band = mrzBand(rotated(BACK, degrees));
    expect(band?.lines).toBe(3);
    expect(Math.abs(Math.abs(band?.skew ?? 0) - 3)).toBeLessThanOrEqual(0.5);
  });

  it('finds no zone in a frame without print', () => {
    const png = new PNG({ width: 320, height: 240 });
    png.data.fill(200);
    expect(mrzBand(PNG.sync.write(png))).toBeNull();
  });
});

describe("Otsu's threshold", () => {
  it('separates any two levels of grey', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 20, max: 55 }),
        fc.integer({ min: 10, max: 500 }),
        fc.integer({ min: 10, max: 500 }),
        (dark, gap, darkCount, lightCount) => {
          const light = dark + gap;
          const values = [...Array(darkCount).fill(dark), ...Array(lightCount).fill(light)];
          const t = otsu(values);
          expect(t).toBeGreaterThanOrEqual(dark);
          expect(t).toBeLessThan(light);
        },
      ),
    );
  });
});
