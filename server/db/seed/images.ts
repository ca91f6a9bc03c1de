import { Readable } from 'node:stream';
import { PNG } from 'pngjs';
import { DOCUMENT_CLASSES, type DocumentClass } from '#contract/common';
import type { Storage } from '../../storage/storage';

type Rgb = [number, number, number];

const CLASS_COLOURS: Record<DocumentClass, Rgb> = {
  ID: [70, 130, 180],
  DL: [60, 160, 110],
  SE: [210, 170, 130],
  PA: [120, 40, 60],
  VA: [150, 110, 190],
  UB: [240, 240, 232],
  IB: [225, 235, 245],
  SG: [250, 250, 250],
  CO: [235, 225, 200],
  OT: [200, 200, 200],
  XX: [150, 150, 150],
};

export const CARD_WIDTH = 320;
export const CARD_HEIGHT = 200;
export const SAMPLE_VARIANTS = 3;

/** Draws a document card: coloured background, header band, photo box, emblem and text lines. */
export function drawCard(documentClass: DocumentClass, variant: number): Buffer {
  const png = new PNG({ width: CARD_WIDTH, height: CARD_HEIGHT });
  const base = CLASS_COLOURS[documentClass];
  const shade = (c: Rgb, d: number): Rgb => [
    Math.max(0, Math.min(255, c[0] + d)),
    Math.max(0, Math.min(255, c[1] + d)),
    Math.max(0, Math.min(255, c[2] + d)),
  ];
  const set = (x: number, y: number, c: Rgb) => {
    const i = (CARD_WIDTH * y + x) << 2;
    png.data[i] = c[0];
    png.data[i + 1] = c[1];
    png.data[i + 2] = c[2];
    png.data[i + 3] = 255;
  };
  const rect = (x0: number, y0: number, w: number, h: number, c: Rgb) => {
    for (let y = y0; y < Math.min(CARD_HEIGHT, y0 + h); y++)
      for (let x = x0; x < Math.min(CARD_WIDTH, x0 + w); x++) set(x, y, c);
  };
  rect(0, 0, CARD_WIDTH, CARD_HEIGHT, shade(base, variant * 12));
  rect(0, 0, CARD_WIDTH, 34, shade(base, -50));
  const photoX = variant % 2 === 0 ? 16 : CARD_WIDTH - 106;
  if (documentClass === 'SE') {
    // A selfie: a face-like oval on a plain background.
    for (let y = 40; y < 190; y++)
      for (let x = 100; x < 220; x++)
        if (((x - 160) / 55) ** 2 + ((y - 110) / 70) ** 2 <= 1) set(x, y, [230, 190, 160]);
  } else {
    rect(photoX, 48, 90, 120, [235, 235, 235]);
    for (let y = 60; y < 150; y++)
      for (let x = photoX + 10; x < photoX + 80; x++)
        if (((x - photoX - 45) / 28) ** 2 + ((y - 95) / 34) ** 2 <= 1) set(x, y, [120, 100, 90]);
  }
  const textX = photoX === 16 ? 124 : 16;
  for (let line = 0; line < 6; line++)
    rect(textX, 52 + line * 20, 150 - ((line * 37 + variant * 19) % 70), 8, shade(base, -90));
  for (let y = 4; y < 30; y++)
    for (let x = CARD_WIDTH - 30; x < CARD_WIDTH - 4; x++)
      if ((x - (CARD_WIDTH - 17)) ** 2 + (y - 17) ** 2 <= 144) set(x, y, [230, 200, 60]);
  return PNG.sync.write(png, { deflateLevel: 6 });
}

export const sampleKey = (documentClass: DocumentClass, variant: number) =>
  `samples/${documentClass.toLowerCase()}-${variant}.png`;

/** Writes the shared sample images (3 per class) unless they are already stored. */
export async function ensureSampleImages(storage: Storage): Promise<void> {
  for (const documentClass of DOCUMENT_CLASSES) {
    for (let variant = 0; variant < SAMPLE_VARIANTS; variant++) {
      const key = sampleKey(documentClass, variant);
      if ((await storage.size(key)) !== null) continue;
      await storage.put(key, Readable.from([drawCard(documentClass, variant)]));
    }
  }
}
