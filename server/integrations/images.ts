import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/** Photos (auth photo, login photo): JPEG or PNG, at most 5 MB once decoded from base64. */
export const MAX_PHOTO_BYTES = 5 * 1024 * 1024;

export type ImageKind = 'jpeg' | 'png';

export interface PhotoBytes {
  kind: ImageKind;
  bytes: Buffer;
}

/** The kind of image by its first bytes (the declared type is never trusted). */
export function imageKindOf(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

/**
 * A photo sent as a data URL (`data:image/jpeg;base64,…`) or as bare base64: its bytes when they are a
 * JPEG or PNG of at most 5 MB, otherwise null.
 */
export function parsePhoto(value: string): PhotoBytes | null {
  const match = /^data:([\w/+.-]*)(;[\w=.-]+)*;base64,/i.exec(value);
  const base64 = (match ? value.slice(match[0].length) : value).replace(/\s+/g, '');
  // The size first: a longer string is refused unread. Then one search for a character outside the alphabet,
  // which cannot backtrack: `^[…]+={0,2}$` over megabytes of base64 now and then overflowed V8's regexp stack
  // (a RangeError, a 500).
  if (base64.length === 0 || Math.floor((base64.length * 3) / 4) > MAX_PHOTO_BYTES + 3) return null;
  const body = base64.endsWith('==')
    ? base64.slice(0, -2)
    : base64.endsWith('=')
      ? base64.slice(0, -1)
      : base64;
  if (body.length === 0 || /[^A-Za-z0-9+/_-]/.test(body)) return null;
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0 || bytes.length > MAX_PHOTO_BYTES) return null;
  const kind = imageKindOf(bytes);
  return kind ? { kind, bytes } : null;
}

export interface RgbImage {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, row by row. */
  data: Uint8Array;
}

/** Largest image decoded (pixels): a 5 MB file can claim far more, which would exhaust memory. */
const MAX_PIXELS = 40_000_000;

/** Decodes a JPEG or PNG with pure-JavaScript decoders (no native code). Throws on a broken file. */
export function decodeImage(bytes: Buffer): RgbImage {
  const kind = imageKindOf(bytes);
  let rgba: { width: number; height: number; data: Uint8Array };
  if (kind === 'jpeg') {
    rgba = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: MAX_PIXELS / 1_000_000,
      maxMemoryUsageInMB: 512,
    });
  } else if (kind === 'png') {
    const png = PNG.sync.read(bytes);
    if (png.width * png.height > MAX_PIXELS) throw new Error('image too large');
    rgba = png;
  } else {
    throw new Error('not a JPEG or PNG image');
  }
  const { width, height } = rgba;
  const data = new Uint8Array(width * height * 3);
  for (let i = 0, j = 0; j < data.length; i += 4) {
    data[j++] = rgba.data[i] as number;
    data[j++] = rgba.data[i + 1] as number;
    data[j++] = rgba.data[i + 2] as number;
  }
  return { width, height, data };
}
