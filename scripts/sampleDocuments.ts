/**
 * Synthetic identity documents for the machine checks' tests, benchmark and demo: ID cards (ICAO 9303 TD1, a
 * front with the portrait and printed fields, a back with the 3-line MRZ) and passport data pages (TD3, portrait,
 * fields and the 2-line MRZ on one page), drawn by headless Chromium as the agent's camera would see them
 * (640 × 480), optionally blurred, noisy, slightly rotated and glared. The portrait is one of the project's
 * sample faces; the MRZ is set in OCR-B (Debian's fonts-ocr-b), the font ICAO 9303 prescribes, or in DejaVu Sans
 * Mono on request.
 *
 *   npx tsx scripts/sampleDocuments.ts [out-dir]   # writes a small set and manifest.json (what each holds)
 *
 * Env: CHROMIUM_PATH (else the headless shell or /usr/bin/chromium); SAMPLE_MRZ_FONT=dejavu (the zone in
 * DejaVu Sans Mono, the stand-in the reader was first measured with; `ocr-b`, the default, needs fonts-ocr-b).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { composeMrz, type MrzPerson } from '../server/domain/machineChecks/mrz';
import { type SampleFace, sampleFaceDataUrl } from '../server/integrations/faceSamples';
import { decodeImage } from '../server/integrations/images';

export interface SampleDocument {
  /** The file name's stem. */
  name: string;
  person: MrzPerson & { face: SampleFace; birthPrinted: string; expiryPrinted: string };
  /** Blur radius (px), noise amplitude (0–1), rotation (degrees), glare strength (0–1). */
  degrade?: { blur: number; noise: number; rotate: number; glare: number };
}

export interface SampleImages {
  /** The ID card's front or the passport's data page (portrait, fields; the passport's MRZ). */
  front: Buffer;
  /** The ID card's back with its MRZ; for a passport, the data page again, as an agent may take it twice. */
  back: Buffer;
  mrz: string[];
}

const require = createRequire(import.meta.url);
/** Debian's `fonts-ocr-b`: the typeface ICAO 9303 prescribes for the zone. */
export const OCR_B_FONT = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';

/**
 * The zone's font: the real OCR-B (Debian's fonts-ocr-b), as on real documents, or with SAMPLE_MRZ_FONT=dejavu
 * DejaVu Sans Mono from node_modules, the stand-in the reader was first tuned on
 * (docs/decisions/0216-mrz-ocr-and-synthetic-documents.md). Only the drawing needs the font; the reader does not.
 * `scale` keeps the zone's lines as wide either way: a real zone's pitch is fixed (about 2.5 mm a character) and
 * OCR-B's glyphs are wider for their height (advance 0.723 em against 0.602).
 */
export function mrzFont(): { name: 'OCR-B' | 'DejaVu Sans Mono'; url: string; scale: number } {
  if (process.env.SAMPLE_MRZ_FONT !== 'dejavu') {
    if (!existsSync(OCR_B_FONT))
      throw new Error(
        `${OCR_B_FONT} is missing: apt-get install fonts-ocr-b, or SAMPLE_MRZ_FONT=dejavu for the stand-in font`,
      );
    return {
      name: 'OCR-B',
      url: `data:font/otf;base64,${readFileSync(OCR_B_FONT).toString('base64')}`,
      scale: 0.602 / 0.723,
    };
  }
  const path = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSansMono.ttf');
  return {
    name: 'DejaVu Sans Mono',
    url: `data:font/ttf;base64,${readFileSync(path).toString('base64')}`,
    scale: 1,
  };
}

export const chromiumExecutable = () =>
  process.env.CHROMIUM_PATH ||
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function field(label: string, value: string) {
  return `<div class="f"><div class="l">${escapeHtml(label)}</div><div class="v">${escapeHtml(value)}</div></div>`;
}

/** The page Chromium draws: a card on a desk, the degradations as filters and overlays. */
function html(
  doc: SampleDocument,
  side: 'front' | 'back',
  mrz: string[],
  font: ReturnType<typeof mrzFont>,
): string {
  const p = doc.person;
  const d = doc.degrade ?? { blur: 0, noise: 0, rotate: 0, glare: 0 };
  const passport = p.format === 'TD3';
  const width = passport ? 600 : 560;
  const mrzSize = (passport ? 19.5 : 28) * font.scale;
  const portrait = `<div class="face"><img src="${sampleFaceDataUrl(p.face)}"></div>`;
  const fields = [
    field('Surname / Soyadı', p.lastName),
    field('Given names / Adı', p.firstNames),
    field('Date of birth / Doğum tarihi', p.birthPrinted),
    field('Document no / Seri no', p.documentNumber),
    field('Nationality / Uyruğu', p.nationality),
    field('Valid until / Son geçerlilik', p.expiryPrinted),
  ].join('');
  const zone = `<div class="mrz">${mrz.map(escapeHtml).join('<br>')}</div>`;
  const body =
    side === 'back' && !passport
      ? `<div class="title">IDENTITY CARD · KİMLİK KARTI</div><div class="spacer"></div>${zone}`
      : `<div class="title">${passport ? 'PASSPORT · PASAPORT' : 'IDENTITY CARD · KİMLİK KARTI'}</div>
         <div class="row">${portrait}<div class="fields">${fields}</div></div>${passport ? zone : ''}`;
  return `<!doctype html><html><head><style>
    @font-face { font-family: 'OCRB'; src: url(${font.url}); }
    html, body { margin: 0; width: 640px; height: 480px; overflow: hidden; background: #6b5d4f; }
    .card { position: absolute; left: ${(640 - width) / 2}px; top: ${passport ? 40 : 60}px; width: ${width}px;
      height: ${passport ? 400 : 360}px; background: linear-gradient(135deg, #e9f0f5, #d6e4dc); border-radius: 14px;
      box-shadow: 0 4px 18px rgba(0,0,0,.5); font-family: sans-serif; color: #1c2430; padding: 14px 18px;
      box-sizing: border-box; transform: rotate(${d.rotate}deg); filter: blur(${d.blur}px); }
    .title { font-weight: bold; font-size: 15px; letter-spacing: 1px; color: #7a1f2b; }
    .row { display: flex; gap: 18px; margin-top: 10px; }
    .face { width: 130px; height: 160px; overflow: hidden; border-radius: 4px; flex: none; }
    /* The sample photo is a face on a grey margin: enlarged so the face fills the portrait's frame. */
    .face img { width: 130px; height: 160px; object-fit: cover; transform: scale(1.8); }
    .fields { display: grid; grid-template-columns: 1fr 1fr; gap: 6px 14px; }
    .l { font-size: 9px; color: #4a5666; } .v { font-size: 14px; font-weight: 600; }
    .spacer { height: ${passport ? 0 : 150}px; }
    .mrz { font-family: 'OCRB', monospace; font-size: ${mrzSize}px; line-height: 1.3; letter-spacing: 0;
      margin-top: 14px; white-space: pre; color: #000; }
    .glare { position: absolute; inset: 0; pointer-events: none;
      background: radial-gradient(circle at 30% 35%, rgba(255,255,255,${d.glare}) 0, rgba(255,255,255,0) 45%); }
    canvas { position: absolute; inset: 0; }
  </style></head><body><div class="card">${body}</div><div class="glare"></div>
  <canvas id="noise" width="640" height="480"></canvas>
  <script>
    // Sensor noise: a seeded pseudo-random grey on every pixel, so a document is the same on every run.
    const amplitude = ${d.noise};
    if (amplitude > 0) {
      const c = document.getElementById('noise').getContext('2d');
      const img = c.createImageData(640, 480);
      let seed = ${[...doc.name].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) >>> 0, 7)};
      const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
      for (let i = 0; i < img.data.length; i += 4) {
        const v = rand() < 0.5 ? 0 : 255;
        img.data[i] = img.data[i + 1] = img.data[i + 2] = v;
        img.data[i + 3] = Math.round(rand() * 255 * amplitude);
      }
      c.putImageData(img, 0, 0);
    }
  </script></body></html>`;
}

/** Draws documents with one browser (started here unless given); JPEGs as a 640 × 480 camera frame. */
export async function renderDocuments(docs: SampleDocument[], given?: Browser): Promise<SampleImages[]> {
  const browser =
    given ?? (await chromium.launch({ executablePath: chromiumExecutable(), args: ['--no-sandbox'] }));
  const font = mrzFont();
  try {
    const page = await browser.newPage({ viewport: { width: 640, height: 480 } });
    const out: SampleImages[] = [];
    for (const doc of docs) {
      const mrz = composeMrz(doc.person);
      const shot = async (side: 'front' | 'back') => {
        await page.setContent(html(doc, side, mrz, font));
        await page.evaluate(() => document.fonts.ready.then(() => undefined));
        return page.screenshot({ type: 'jpeg', quality: 90 });
      };
      const front = await shot('front');
      const back = doc.person.format === 'TD3' ? front : await shot('back');
      out.push({ front, back, mrz });
    }
    await page.close();
    return out;
  } finally {
    if (!given) await browser.close();
  }
}

/**
 * A drawn document as a YUV4MPEG2 video of `frames` identical frames, the raw format Chromium's fake camera
 * plays (`--use-file-for-fake-video-capture`, looping): planar 4:2:0 (I420), BT.601 studio range, each chroma
 * sample the average of its 2 × 2 pixels. Width and height must be even.
 */
export function y4mOf(image: Buffer, frames = 1): Buffer {
  const { width, height, data } = decodeImage(image);
  if (width % 2 || height % 2) throw new Error('Y4M frames need an even width and height');
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc(u.length);
  const rgb = (x: number, row: number) => {
    const i = (row * width + x) * 3;
    return [data[i] as number, data[i + 1] as number, data[i + 2] as number] as const;
  };
  for (let row = 0; row < height; row++)
    for (let x = 0; x < width; x++) {
      const [r, g, b] = rgb(x, row);
      y[row * width + x] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
    }
  for (let row = 0; row < height; row += 2)
    for (let x = 0; x < width; x += 2) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const [pr, pg, pb] = rgb(x + dx, row + dy);
        r += pr / 4;
        g += pg / 4;
        b += pb / 4;
      }
      const at = (row / 2) * (width / 2) + x / 2;
      u[at] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      v[at] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

/** YYMMDD of an ISO date, and the date as printed on the card (DD.MM.YYYY). */
export const yymmdd = (iso: string) => iso.slice(2, 10).replace(/-/g, '');
export const printed = (iso: string) => iso.split('-').reverse().join('.');

/** A person's document: a Turkish ID card or passport with the given dates and face. */
export function sampleDocument(
  name: string,
  options: {
    format: 'TD1' | 'TD3';
    face: SampleFace;
    lastName?: string;
    firstNames?: string;
    documentNumber?: string;
    birth?: string;
    expiry?: string;
    wrongDocumentDigit?: boolean;
    degrade?: SampleDocument['degrade'];
  },
): SampleDocument {
  const birth = options.birth ?? '1990-02-15';
  const expiry = options.expiry ?? '2031-01-01';
  return {
    name,
    degrade: options.degrade,
    person: {
      format: options.format,
      face: options.face,
      documentCode: options.format === 'TD1' ? 'I' : 'P',
      issuingState: 'TUR',
      nationality: 'TUR',
      documentNumber: options.documentNumber ?? 'A12B34567',
      lastName: options.lastName ?? 'YILMAZ',
      firstNames: options.firstNames ?? 'AYSE GUL',
      birthDate: yymmdd(birth),
      birthPrinted: printed(birth),
      sex: 'F',
      expiryDate: yymmdd(expiry),
      expiryPrinted: printed(expiry),
      wrongDocumentDigit: options.wrongDocumentDigit,
    },
  };
}

/** The demo set: valid, wrong check digit and expired, as ID card and passport. */
export const DEMO_DOCUMENTS: SampleDocument[] = [
  sampleDocument('id-card-valid', { format: 'TD1', face: 'a2' }),
  sampleDocument('id-card-wrong-check-digit', { format: 'TD1', face: 'a2', wrongDocumentDigit: true }),
  sampleDocument('id-card-expired', { format: 'TD1', face: 'b', expiry: '2019-05-31', lastName: 'ÖZTÜRK' }),
  sampleDocument('passport-valid', { format: 'TD3', face: 'a2', documentNumber: 'U12345678' }),
  sampleDocument('passport-expired', {
    format: 'TD3',
    face: 'c',
    documentNumber: 'U87654321',
    expiry: '2020-01-10',
  }),
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? 'sample-documents';
  mkdirSync(dir, { recursive: true });
  const images = await renderDocuments(DEMO_DOCUMENTS);
  const manifest = DEMO_DOCUMENTS.map((doc, i) => {
    const image = images[i] as SampleImages;
    writeFileSync(join(dir, `${doc.name}-front.jpg`), image.front);
    if (doc.person.format === 'TD1') writeFileSync(join(dir, `${doc.name}-back.jpg`), image.back);
    return { name: doc.name, person: doc.person, mrz: image.mrz };
  });
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`${DEMO_DOCUMENTS.length} documents in ${dir}/`);
}
