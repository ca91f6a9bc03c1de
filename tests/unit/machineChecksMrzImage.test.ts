/**
 * Finding the machine-readable zone in a camera frame: the band of its lines, straightened and enlarged for the
 * engine, on a drawn ID card's back, the same card turned a few degrees, and a frame without any print; the
 * zone's fixed-pitch cells and its fillers told by shape on zones drawn in OCR-B (an ID card's and a passport's),
 * not on one drawn in another font; the read glyphs put in their cells.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../server/integrations/images';
import { type CellLine, mrzBand, otsu, type ReadGlyph, zoneText } from '../../server/integrations/mrzImage';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'server', 'fixtures', name));
/** scripts/sampleDocuments.ts's documents, the zone in OCR-B, and one ID card's back in DejaVu Sans Mono. */
const BACK = fixture('id-card-back.jpg');
const PASSPORT = fixture('passport-ocr-b.jpg');
const BACK_DEJAVU = fixture('id-card-back-dejavu.jpg');
const BACK_ZONE = [
  'I<TURA12B345676<<<<<<<<<<<<<<<',
  '9002155F3101012TUR<<<<<<<<<<<7',
  'YILMAZ<<AYSE<GUL<<<<<<<<<<<<<<',
];
const PASSPORT_ZONE = [
  'P<TURYILMAZ<<AYSE<GUL<<<<<<<<<<<<<<<<<<<<<<<',
  'U123456784TUR9002155F3101012<<<<<<<<<<<<<<02',
];
/** A zone's filler mask: `<` where the zone has a filler, `.` elsewhere. */
const fillersOf = (zone: string[]) => zone.map((line) => line.replace(/[^<]/g, '.'));

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
    const [usual, larger, smaller] = [band?.png, ...(band?.alsoAt ?? []).map((b) => b.png)].map((png) =>
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
    const [whole, checked] = [band?.alsoAt[0], band?.checkedAt[0]].map((b) =>
      PNG.sync.read(b?.png as Buffer),
    );
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

describe("the zone's cells", () => {
  it.each([
    ['an ID card', BACK, BACK_ZONE],
    ['a passport', PASSPORT, PASSPORT_ZONE],
  ])(
    "tells every filler of %s's zone in OCR-B by its shape, at every glyph height read",
    (_, frame, zone) => {
      const band = mrzBand(frame, [20, 16]);
      expect(band?.cells?.map((line) => line.fillers)).toEqual(fillersOf(zone));
      for (const other of band?.alsoAt ?? [])
        expect(other.cells?.map((l) => l.fillers)).toEqual(fillersOf(zone));
      // The lines with check digits alone: a passport's second, an ID card's first two.
      const checked = fillersOf(zone).slice(zone.length === 2 ? 1 : 0, 2);
      for (const other of band?.checkedAt ?? []) expect(other.cells?.map((l) => l.fillers)).toEqual(checked);
    },
  );

  it("leaves a zone in another font to the engine: DejaVu Sans Mono's wide, joined chevrons are not told", () => {
    const band = mrzBand(BACK_DEJAVU, [20]);
    expect(band?.lines).toBe(3);
    expect(band?.cells).toBeNull();
    expect(band?.alsoAt[0]?.cells).toBeNull();
  });
});

describe('the glyphs read, put in their cells', () => {
  const line = (fillers: string, top = 0): CellLine => ({
    top,
    bottom: top + 20,
    left: 0,
    pitch: 10,
    fillers,
  });
  const glyph = (text: string, cell: number, confidence = 90, top = 0): ReadGlyph => ({
    text,
    confidence,
    x0: cell * 10 + 2,
    x1: cell * 10 + 8,
    y0: top + 2,
    y1: top + 18,
  });

  it('takes the surer of two glyphs in one cell, and a letter cell the engine left empty is a filler', () => {
    const cells = [line('..<..'), line('.....', 30)];
    const glyphs = [
      glyph('A', 0),
      glyph('8', 1, 40),
      glyph('B', 1, 85),
      // A glyph in a filler cell (a chevron read after all) and one the engine read as a filler change nothing.
      glyph('L', 2),
      glyph('<', 3),
      glyph('7', 4),
      glyph('Z', 0, 90, 30),
      glyph('5', 4, 90, 30),
    ];
    expect(zoneText(cells, glyphs)).toBe('AB<<7\nZ<<<5');
  });

  it('gives every line exactly its cells, whatever the engine read (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('<', '.'), { minLength: 30, maxLength: 30 }),
        fc.array(
          fc.record({
            text: fc.constantFrom('A', 'K', '0', '<', 'AB', ' '),
            cell: fc.integer({ min: -3, max: 33 }),
            confidence: fc.integer({ min: 0, max: 100 }),
          }),
          { maxLength: 60 },
        ),
        (mask, read) => {
          const fillers = mask.join('');
          const text = zoneText(
            [line(fillers)],
            read.map((g) => glyph(g.text, g.cell, g.confidence)),
          );
          expect(text).toHaveLength(30);
          expect(text).toMatch(/^[A-Z0-9<]+$/);
          // A filler cell is always a filler: the shape said so.
          for (const [i, kind] of [...fillers].entries()) if (kind === '<') expect(text[i]).toBe('<');
        },
      ),
    );
  });
});
