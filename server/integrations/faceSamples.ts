import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import jpeg from 'jpeg-js';

/**
 * Face photos for the demo and the tests, cut at run time from a picture that the @vladmandic/human
 * package ships (`assets/screenshot-facematch.jpg`, a grid of face crops): nothing is copied into this
 * repository. The letter names the person, the digit the photo: `a1` and `a2` are two photos of one man, `b`,
 * `b2` and `b3` three of a woman, `d1` and `d2` two of another man, `c` a fourth person photographed once. Who is
 * who was told by eye (the grid names nobody) and agrees with the model: its closest pairs of photos not of the
 * man `a` are these.
 */
export type SampleFace = 'a1' | 'a2' | 'b' | 'b2' | 'b3' | 'c' | 'd1' | 'd2';

export const SAMPLE_FACES: readonly SampleFace[] = ['a1', 'a2', 'b', 'b2', 'b3', 'c', 'd1', 'd2'];

/** The person a sample photo shows: photos whose names start with the same letter show the same person. */
export const personOf = (face: SampleFace): string => face[0] as string;

/** Grid cells (row, column) of the 18 × 6 grid under "Extracted Faces". */
const CELLS: Record<SampleFace, [number, number]> = {
  a1: [0, 0],
  a2: [0, 1],
  b: [2, 1],
  b2: [4, 2],
  b3: [1, 17],
  c: [1, 6],
  d1: [2, 5],
  d2: [2, 6],
};

const require = createRequire(import.meta.url);

function assetPath(): string {
  return join(dirname(dirname(require.resolve('@vladmandic/human'))), 'assets', 'screenshot-facematch.jpg');
}

let decoded: { width: number; height: number; data: Uint8Array } | null = null;

/** A JPEG of one sample face, centred on a grey square with a margin (the detector needs one). */
export function sampleFacePhoto(face: SampleFace): Buffer {
  decoded ??= jpeg.decode(readFileSync(assetPath()), { useTArray: true });
  const image = decoded;
  const [row, column] = CELLS[face];
  const cellWidth = image.width / 18;
  const cellHeight = (image.height - 284) / 6;
  const x0 = Math.round(column * cellWidth);
  const y0 = Math.round(284 + row * cellHeight);
  const w = Math.round(cellWidth);
  const h = Math.round(cellHeight);
  const pad = 40;
  const size = Math.max(w, h) + 2 * pad;
  const out = Buffer.alloc(size * size * 4, 128);
  const offX = pad + Math.floor((size - 2 * pad - w) / 2);
  const offY = pad + Math.floor((size - 2 * pad - h) / 2);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = ((y0 + y) * image.width + (x0 + x)) * 4;
      const to = ((offY + y) * size + (offX + x)) * 4;
      out[to] = image.data[from] as number;
      out[to + 1] = image.data[from + 1] as number;
      out[to + 2] = image.data[from + 2] as number;
      out[to + 3] = 255;
    }
  }
  return Buffer.from(jpeg.encode({ data: out, width: size, height: size }, 90).data);
}

export function sampleFaceDataUrl(face: SampleFace): string {
  return `data:image/jpeg;base64,${sampleFacePhoto(face).toString('base64')}`;
}
