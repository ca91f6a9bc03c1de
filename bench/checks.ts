/**
 * `npm run bench:checks`: the machine checks beside the agent on BENCH_CHECKS_DOCUMENTS (60) synthetic
 * documents drawn by scripts/sampleDocuments.ts (ID cards and passports, half of each; a seeded mix of names,
 * dates, faces, wrong check digits and expired ones), each blurred, noised, slightly rotated and glared by a
 * seeded random amount. Runs the server's own engines in this process, as the server runs them: tesseract.js in
 * its worker thread for the MRZ, the shipped face model in a thread of its own for the face match. Prints:
 *
 * - the MRZ fields read correctly (%, per field and overall) and the zones not found;
 * - the wrong check digits caught (%) and the right ones called wrong (false alarms);
 * - the face match's false accepts and false rejects at MACHINE_CHECK_FACE_THRESHOLD (0.62), each document
 *   compared with a photo of its holder and one of somebody else;
 * - the time per check, median and p95 (target under 2 s);
 * - the longest stall of this process's event loop during each check (median, p95, max; a 5 ms ticker), while
 *   OCR runs and while the face model runs: what the server's signalling and API feel during a check. The
 *   call's video itself goes peer to peer and never through the server.
 *
 * Nothing is asserted. Env: BENCH_CHECKS_DOCUMENTS, BENCH_CHECKS_SEED (7), MACHINE_CHECK_FACE_THRESHOLD,
 * CHROMIUM_PATH; BENCH_CHECKS_FRAME_WIDTH (640) shrinks every frame to that width first, as a call on a poor
 * link delivers it (320 for 320 × 240); BENCH_CHECKS_FACES=0 leaves the face match out (the MRZ alone);
 * BENCH_CHECKS_DUMP=<dir> writes each document's frame, true zone and read text there.
 *
 * Not measured here: the agent's received frame rate while a check runs. The checks run on the server and the
 * call's video goes peer to peer, so it needs a browser agent receiving a fake-media call beside this process.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderDocuments, type SampleDocument, sampleDocument } from '../scripts/sampleDocuments';
import { readMrz } from '../server/domain/machineChecks/mrz';
import { createThreadedFaceMatcher } from '../server/integrations/faceMatchThreaded';
import { type SampleFace, sampleFacePhoto } from '../server/integrations/faceSamples';
import { createTesseractMrzOcr } from '../server/integrations/mrzOcr';
import { shrinkFrame } from './frames';
import { percentile } from './support';

const COUNT = Number(process.env.BENCH_CHECKS_DOCUMENTS ?? 60);
const FRAME_WIDTH = Number(process.env.BENCH_CHECKS_FRAME_WIDTH ?? 640);
const FACES_TOO = process.env.BENCH_CHECKS_FACES !== '0';
/** A folder to write each document's MRZ frame, its true zone and what was read into (looking into misreads). */
const DUMP = process.env.BENCH_CHECKS_DUMP;
const THRESHOLD = Number(process.env.MACHINE_CHECK_FACE_THRESHOLD ?? 0.62);
let seed = Number(process.env.BENCH_CHECKS_SEED ?? 7);
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const between = (min: number, max: number) => min + random() * (max - min);

const SURNAMES = [
  'YILMAZ',
  'KAYA',
  'DEMIR',
  'OZTURK',
  'CELIK',
  'SAHIN',
  'MUELLER',
  'SCHMIDT',
  'ERIKSSON',
  'DOGAN',
];
const GIVEN = [
  'AYSE',
  'MEHMET',
  'ZEYNEP',
  'ALI',
  'ELIF',
  'MUSTAFA',
  'ANNA MARIA',
  'JOERG',
  'EMRE CAN',
  'FATMA',
];
const FACES: SampleFace[] = ['a1', 'a2', 'b', 'c'];
/** The same man's other photo; b and c have no second photo, so their "same person" pair is skipped. */
const OTHER_PHOTO: Partial<Record<SampleFace, SampleFace>> = { a1: 'a2', a2: 'a1' };

const iso = (d: Date) => d.toISOString().slice(0, 10);
const alnum = (n: number) =>
  Array.from({ length: n }, () => pick([...'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'])).join('');

function documents(): SampleDocument[] {
  return Array.from({ length: COUNT }, (_, i) => {
    const expired = random() < 0.3;
    const expiry = new Date(Date.now() + (expired ? -1 : 1) * between(30, 3000) * 86_400_000);
    const birth = new Date(
      Date.UTC(1950 + Math.floor(random() * 55), Math.floor(random() * 12), 1 + Math.floor(random() * 28)),
    );
    return sampleDocument(`bench-${i}`, {
      format: i % 2 === 0 ? 'TD1' : 'TD3',
      face: pick(FACES),
      lastName: pick(SURNAMES),
      firstNames: pick(GIVEN),
      documentNumber: `${pick(['A', 'U', 'B'])}${alnum(8)}`,
      birth: iso(birth),
      expiry: iso(expiry),
      wrongDocumentDigit: random() < 0.25,
      degrade: {
        blur: between(0, 1.2),
        noise: between(0, 0.25),
        rotate: between(-4, 4),
        glare: between(0, 0.6),
      },
    });
  });
}

function median(values: number[]) {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}
function p95(values: number[]) {
  return percentile(
    [...values].sort((a, b) => a - b),
    95,
  );
}

async function main() {
  const docs = documents();
  console.log(`Drawing ${docs.length} documents…`);
  const images = (await renderDocuments(docs)).map((image) =>
    FRAME_WIDTH >= 640
      ? image
      : {
          ...image,
          front: shrinkFrame(image.front, FRAME_WIDTH),
          back: shrinkFrame(image.back, FRAME_WIDTH),
        },
  );
  const ocr = createTesseractMrzOcr({ onError: (error) => console.error(error) });
  const faces = createThreadedFaceMatcher({
    minSimilarity: THRESHOLD,
    onError: (error) => console.error(error),
  });
  const today = new Date();
  const fields = [
    'document_number',
    'last_name',
    'first_names',
    'birth_date',
    'expiry_date',
    'nationality',
    'sex',
  ] as const;
  const correct: Record<string, number> = Object.fromEntries(fields.map((f) => [f, 0]));
  let notFound = 0;
  let wrongDigits = 0;
  let caught = 0;
  let rightDigits = 0;
  let falseAlarms = 0;
  let expiredRight = 0;
  const ocrMs: number[] = [];
  const faceMs: number[] = [];
  const same: number[] = [];
  const different: number[] = [];
  let sameNoFace = 0;
  const stallsOcr: number[] = [];
  const stallsFace: number[] = [];
  // A ticker every 5 ms: the longest gap between its ticks during a check is how long the loop stood still.
  let lastTick = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - lastTick - 5);
    lastTick = now;
  }, 5);
  const watch = async <T>(stalls: number[], work: () => Promise<T>): Promise<T> => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    longestGap = 0;
    const result = await work();
    // The ticks held up by the end of the work count too.
    await new Promise((resolve) => setTimeout(resolve, 10));
    stalls.push(Math.max(0, longestGap));
    return result;
  };

  // The engines load once, as in a running server; their start is not a check's time.
  await ocr.read(images[0]?.back as Buffer);
  await faces.compare(sampleFacePhoto('a1'), sampleFacePhoto('a2'));

  for (const [index, doc] of docs.entries()) {
    const image = images[index];
    if (!image) continue;
    const p = doc.person;
    const read = await watch(stallsOcr, async () => {
      const started = performance.now();
      const text = await ocr.read(image.back);
      ocrMs.push(performance.now() - started);
      return text;
    });
    const reading = read ? readMrz(read.text, today) : null;
    if (DUMP) {
      mkdirSync(DUMP, { recursive: true });
      writeFileSync(join(DUMP, `${doc.name}.jpg`), image.back);
      const report = { truth: image.mrz, read: read?.text ?? null, lines: reading?.lines ?? null };
      writeFileSync(join(DUMP, `${doc.name}.json`), `${JSON.stringify(report, null, 2)}\n`);
    }
    const truth = {
      document_number: p.documentNumber,
      last_name: p.lastName,
      first_names: p.firstNames,
      birth_date: p.birthPrinted.split('.').reverse().join('-'),
      expiry_date: p.expiryPrinted.split('.').reverse().join('-'),
      nationality: p.nationality,
      sex: p.sex,
    };
    if (!reading) notFound++;
    for (const field of fields)
      if (reading?.fields[field] === truth[field]) correct[field] = (correct[field] ?? 0) + 1;
    if (p.wrongDocumentDigit) {
      wrongDigits++;
      if (reading && !reading.check_digits.document_number) caught++;
    } else {
      rightDigits++;
      if (reading && !reading.check_digits_hold) falseAlarms++;
    }
    if (reading && reading.expired === truth.expiry_date < iso(today)) expiredRight++;

    const holderPhoto = OTHER_PHOTO[p.face];
    const stranger = pick(FACES.filter((f) => f[0] !== p.face[0]));
    for (const [live, list] of [
      [holderPhoto, same],
      [stranger, different],
    ] as const) {
      if (!live || !FACES_TOO) continue;
      const result = await watch(stallsFace, async () => {
        const started = performance.now();
        const compared = await faces.compare(sampleFacePhoto(live), image.front);
        faceMs.push(performance.now() - started);
        return compared;
      });
      const similarity = result.outcome === 'unavailable' ? null : result.similarity;
      if (similarity === null) {
        if (list === same) sameNoFace++;
        continue;
      }
      list.push(similarity);
    }
  }
  await ocr.close();
  await faces.close();
  clearInterval(ticker);

  const pct = (n: number, of: number) => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)} %`);
  const read = docs.length - notFound;
  const all = Object.values(correct).reduce((a, b) => a + b, 0);
  console.log(`\nMRZ (${ocr.engine.name} ${ocr.engine.version}), ${docs.length} documents`);
  console.log(`  zones found: ${read} of ${docs.length} (${pct(read, docs.length)})`);
  for (const field of fields) console.log(`  ${field.padEnd(16)} ${pct(correct[field] ?? 0, docs.length)}`);
  console.log(`  all fields       ${pct(all, docs.length * fields.length)}`);
  console.log(`  wrong check digits caught: ${caught} of ${wrongDigits} (${pct(caught, wrongDigits)})`);
  console.log(
    `  right check digits called wrong: ${falseAlarms} of ${rightDigits} (${pct(falseAlarms, rightDigits)})`,
  );
  console.log(`  expired or not told right: ${pct(expiredRight, docs.length)}`);
  const falseRejects = same.filter((s) => s < THRESHOLD).length + sameNoFace;
  const falseAccepts = different.filter((s) => s >= THRESHOLD).length;
  console.log(`  frames ${FRAME_WIDTH} px wide`);
  console.log(`\nFace match at threshold ${THRESHOLD}`);
  console.log(
    `  same person: ${same.length + sameNoFace} pairs, false rejects ${falseRejects} (${pct(falseRejects, same.length + sameNoFace)}), ` +
      `no face found ${sameNoFace}, similarity min ${Math.min(...same).toFixed(2)} median ${median(same).toFixed(2)}`,
  );
  console.log(
    `  different people: ${different.length} pairs, false accepts ${falseAccepts} (${pct(falseAccepts, different.length)}), ` +
      `similarity max ${Math.max(...different).toFixed(2)} median ${median(different).toFixed(2)}`,
  );
  console.log('\nTime per check (ms)');
  console.log(`  MRZ OCR + parse   median ${median(ocrMs).toFixed(0)}  p95 ${p95(ocrMs).toFixed(0)}`);
  console.log(`  face match        median ${median(faceMs).toFixed(0)}  p95 ${p95(faceMs).toFixed(0)}`);
  const stall = (list: number[]) =>
    `median ${median(list).toFixed(0)}  p95 ${p95(list).toFixed(0)}  max ${Math.max(...list).toFixed(0)}`;
  console.log('\nLongest event-loop stall of the server process per check (ms)');
  console.log(`  OCR (tesseract.js worker thread)  ${stall(stallsOcr)}`);
  console.log(`  face match (worker thread)           ${stall(stallsFace)}`);
}

await main();
