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
 *   compared with every other photo of its holder (faceSamples.ts: three people photographed more than once)
 *   and one of somebody else, and the same person's lowest similarity printed for each person;
 * - the time per check, median and p95 (target under 2 s);
 * - the longest stall of this process's event loop during each check (median, p95, max; a 5 ms ticker), while
 *   OCR runs and while the face model runs: what the server's signalling and API feel during a check. The
 *   call's video itself goes peer to peer and never through the server;
 * - the agent's received frame rate (frames decoded per second) in a call between two headless Chromium pages
 *   on this machine, the customer's camera a drawn passport page: first with no check running, then while
 *   checks run back to back in this process (bench/receivedFrameRate.ts).
 *
 * Nothing is asserted. Env: BENCH_CHECKS_DOCUMENTS, BENCH_CHECKS_SEED (7), MACHINE_CHECK_FACE_THRESHOLD,
 * CHROMIUM_PATH; BENCH_CHECKS_FRAME_WIDTH (640) shrinks every frame to that width first, as a call on a poor
 * link delivers it (320 for 320 × 240); BENCH_CHECKS_FACES=0 leaves the face match out (the MRZ alone);
 * BENCH_CHECKS_DUMP=<dir> writes each document's frame, true zone and read texts there; BENCH_CHECKS_COMPARE=1
 * also reads every zone with one read of the band only (no re-read at other glyph heights) and with the reader of
 * BENCH_BASELINE_REV (bench/baseline.ts; default: the last revision whose reader read OCR-B's fillers as letters),
 * and prints them beside the working tree's;
 * BENCH_CHECKS_FPS_WINDOW_MS (10000) is the frame rate's window, 0 leaves the call out; the zones are drawn in the
 * real OCR-B font, SAMPLE_MRZ_FONT=dejavu draws them in the stand-in DejaVu Sans Mono (scripts/sampleDocuments.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MrzReading } from '#contract/machineChecks';
import {
  mrzFont,
  renderDocuments,
  type SampleDocument,
  type SampleImages,
  sampleDocument,
  y4mOf,
} from '../scripts/sampleDocuments';
import { readMrz } from '../server/domain/machineChecks/mrz';
import { createThreadedFaceMatcher } from '../server/integrations/faceMatchThreaded';
import { personOf, SAMPLE_FACES, type SampleFace, sampleFacePhoto } from '../server/integrations/faceSamples';
import { createTesseractMrzOcr, type MrzOcr } from '../server/integrations/mrzOcr';
import { serverTrees } from './baseline';
import { shrinkFrame } from './frames';
import { type ReceivingCall, startReceivingCall } from './receivedFrameRate';
import { percentile } from './support';

const COUNT = Number(process.env.BENCH_CHECKS_DOCUMENTS ?? 60);
const FRAME_WIDTH = Number(process.env.BENCH_CHECKS_FRAME_WIDTH ?? 640);
const FACES_TOO = process.env.BENCH_CHECKS_FACES !== '0';
/** A folder to write each document's MRZ frame, its true zone and what was read into (looking into misreads). */
const DUMP = process.env.BENCH_CHECKS_DUMP;
/** Also reads every zone with one read of the band, and with the baseline's reader, and prints all side by side. */
const COMPARE = process.env.BENCH_CHECKS_COMPARE === '1';
/** The last revision whose reader read OCR-B's filler chevrons as letters (before the zone's cells). */
const BEFORE_REV = 'afa9ec8';
/** Window over which the agent's received frame rate is counted; 0 leaves the call out. */
const FPS_WINDOW_MS = Number(process.env.BENCH_CHECKS_FPS_WINDOW_MS ?? 10_000);
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
const FACES = SAMPLE_FACES;
/** The holder's other photos (none for a person photographed once, whose "same person" pairs are skipped). */
const otherPhotos = (face: SampleFace) => FACES.filter((f) => f !== face && personOf(f) === personOf(face));

const iso = (d: Date) => d.toISOString().slice(0, 10);
const alnum = (n: number) =>
  Array.from({ length: n }, () => pick([...'ABCDEFGHJKLMNPRSTUVWXYZ0123456789'])).join('');

/** The benchmark's documents: the same every run of a seed. */
export function benchDocuments(): SampleDocument[] {
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

const FIELDS = [
  'document_number',
  'last_name',
  'first_names',
  'birth_date',
  'expiry_date',
  'nationality',
  'sex',
] as const;

/** What one way of reading the zone got right over the documents, and its time per document. */
function mrzTally(label: string, ocr: MrzOcr, parse: typeof readMrz = readMrz) {
  const correct: Record<string, number> = Object.fromEntries(FIELDS.map((f) => [f, 0]));
  const tally = {
    label,
    ocr,
    parse,
    correct,
    notFound: 0,
    wrongDigits: 0,
    caught: 0,
    rightDigits: 0,
    falseAlarms: 0,
    expiredRight: 0,
    ms: [] as number[],
    stalls: [] as number[],
    add(doc: SampleDocument, reading: MrzReading | null, today: Date) {
      const p = doc.person;
      const truth = {
        document_number: p.documentNumber,
        last_name: p.lastName,
        first_names: p.firstNames,
        birth_date: p.birthPrinted.split('.').reverse().join('-'),
        expiry_date: p.expiryPrinted.split('.').reverse().join('-'),
        nationality: p.nationality,
        sex: p.sex,
      };
      if (!reading) tally.notFound++;
      for (const field of FIELDS)
        if (reading?.fields[field] === truth[field]) correct[field] = (correct[field] ?? 0) + 1;
      if (p.wrongDocumentDigit) {
        tally.wrongDigits++;
        if (reading && !reading.check_digits.document_number) tally.caught++;
      } else {
        tally.rightDigits++;
        if (reading && !reading.check_digits_hold) tally.falseAlarms++;
      }
      if (reading && reading.expired === truth.expiry_date < iso(today)) tally.expiredRight++;
    },
  };
  return tally;
}

async function main() {
  const docs = benchDocuments();
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
  const onError = (error: unknown) => console.error(error);
  const tallies = [mrzTally(COMPARE ? 'after (working tree)' : 'server', createTesseractMrzOcr({ onError }))];
  const baseline = COMPARE ? serverTrees(BEFORE_REV).find((tree) => tree.dir !== process.cwd()) : undefined;
  if (COMPARE)
    tallies.push(mrzTally('one read, no re-read', createTesseractMrzOcr({ onError, rereadAt: [] })));
  if (baseline) {
    const before = (await import(join(baseline.dir, 'server', 'integrations', 'mrzOcr.ts'))) as {
      createTesseractMrzOcr: typeof createTesseractMrzOcr;
    };
    // The baseline's text is parsed by the baseline's own parser: reading a zone is both.
    const { readMrz: parseBefore } = (await import(
      join(baseline.dir, 'server', 'domain', 'machineChecks', 'mrz.ts')
    )) as { readMrz: typeof readMrz };
    tallies.push(mrzTally(baseline.label, before.createTesseractMrzOcr({ onError }), parseBefore));
  }
  const faces = createThreadedFaceMatcher({ minSimilarity: THRESHOLD, onError });
  const today = new Date();
  const faceMs: number[] = [];
  const same: number[] = [];
  const different: number[] = [];
  let sameNoFace = 0;
  const sameByPerson: Record<string, number[]> = {};
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
  for (const { ocr } of tallies) await ocr.read(images[0]?.back as Buffer);
  await faces.compare(sampleFacePhoto('a1'), sampleFacePhoto('a2'));

  for (const [index, doc] of docs.entries()) {
    const image = images[index];
    if (!image) continue;
    const p = doc.person;
    for (const tally of tallies) {
      const read = await watch(tally.stalls, async () => {
        const started = performance.now();
        const text = await tally.ocr.read(image.back);
        tally.ms.push(performance.now() - started);
        return text;
      });
      const reading = read ? tally.parse(read.text, today) : null;
      tally.add(doc, reading, today);
      if (DUMP) {
        // The first column's reading as <document>.json, the others' as <document>.<column>.json.
        const column = tallies.indexOf(tally);
        mkdirSync(DUMP, { recursive: true });
        writeFileSync(join(DUMP, `${doc.name}.jpg`), image.back);
        const report = { truth: image.mrz, read: read?.text ?? null, lines: reading?.lines ?? null };
        const file = column === 0 ? `${doc.name}.json` : `${doc.name}.${column}.json`;
        writeFileSync(join(DUMP, file), `${JSON.stringify(report, null, 2)}\n`);
      }
    }

    // Every other photo of the holder, and one of somebody else, as the face screenshot.
    const stranger = pick(FACES.filter((f) => personOf(f) !== personOf(p.face)));
    for (const [live, list] of [
      ...otherPhotos(p.face).map((photo) => [photo, same] as const),
      [stranger, different] as const,
    ]) {
      if (!FACES_TOO) continue;
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
      if (list === same)
        sameByPerson[personOf(p.face)] = [...(sameByPerson[personOf(p.face)] ?? []), similarity];
    }
  }

  const frameRate = FPS_WINDOW_MS > 0 ? await receivedFrameRate(images, tallies[0]?.ocr, faces) : null;
  for (const { ocr } of tallies) await ocr.close();
  baseline?.remove();
  await faces.close();
  clearInterval(ticker);

  const pct = (n: number, of: number) => (of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)} %`);
  const engine = tallies[0]?.ocr.engine;
  console.log(
    `\nMRZ (${engine?.name} ${engine?.version}), ${docs.length} documents, frames ${FRAME_WIDTH} px wide, ` +
      `the zone set in ${mrzFont().name}`,
  );
  const rows: Record<string, Record<string, string>> = {};
  const row = (name: string, value: (t: (typeof tallies)[number]) => string) => {
    rows[name] = Object.fromEntries(tallies.map((t) => [t.label, value(t)]));
  };
  row('zones found', (t) => `${docs.length - t.notFound} of ${docs.length}`);
  for (const field of FIELDS) row(field, (t) => pct(t.correct[field] ?? 0, docs.length));
  row('all fields', (t) =>
    pct(
      Object.values(t.correct).reduce((a, b) => a + b, 0),
      docs.length * FIELDS.length,
    ),
  );
  row(
    'wrong check digits caught',
    (t) => `${t.caught} of ${t.wrongDigits} (${pct(t.caught, t.wrongDigits)})`,
  );
  row(
    'right check digits called wrong',
    (t) => `${t.falseAlarms} of ${t.rightDigits} (${pct(t.falseAlarms, t.rightDigits)})`,
  );
  row('expired or not told right', (t) => pct(t.expiredRight, docs.length));
  row('time per check, median (ms)', (t) => median(t.ms).toFixed(0));
  row('time per check, p95 (ms)', (t) => p95(t.ms).toFixed(0));
  const stall = (list: number[]) =>
    `median ${median(list).toFixed(0)}  p95 ${p95(list).toFixed(0)}  max ${Math.max(...list).toFixed(0)}`;
  row('event-loop stall per check (ms)', (t) => stall(t.stalls));
  console.table(rows);

  const falseRejects = same.filter((s) => s < THRESHOLD).length + sameNoFace;
  const falseAccepts = different.filter((s) => s >= THRESHOLD).length;
  console.log(`\nFace match at threshold ${THRESHOLD}`);
  console.log(
    `  same person: ${same.length + sameNoFace} pairs, false rejects ${falseRejects} (${pct(falseRejects, same.length + sameNoFace)}), ` +
      `no face found ${sameNoFace}, similarity min ${Math.min(...same).toFixed(2)} median ${median(same).toFixed(2)}`,
  );
  console.log(
    `  different people: ${different.length} pairs, false accepts ${falseAccepts} (${pct(falseAccepts, different.length)}), ` +
      `similarity max ${Math.max(...different).toFixed(2)} median ${median(different).toFixed(2)}`,
  );
  for (const [person, list] of Object.entries(sameByPerson).sort())
    console.log(
      `    person ${person}: ${list.length} pairs, min ${Math.min(...list).toFixed(2)} median ${median(list).toFixed(2)}`,
    );
  console.log(`  time per check (ms): median ${median(faceMs).toFixed(0)}  p95 ${p95(faceMs).toFixed(0)}`);
  console.log(`  longest event-loop stall per check (ms): ${stall(stallsFace)}`);
  if (frameRate) {
    console.log(
      `\nThe agent's received video, frames decoded per second over ${FPS_WINDOW_MS} ms (two headless Chromium pages ` +
        'on loopback, the camera a drawn passport page at 30 fps, on this machine beside the checks)',
    );
    console.table({
      'no check running': frameRate.idle,
      'checks running back to back': frameRate.busy,
    });
  }
}

/**
 * The agent's received frame rate without a check and while checks run back to back (MRZ then face match, on
 * the benchmark's documents), on this machine: the server and the agent's browser share its cores in the worst
 * case, as on a small on-premises box. Null when the call could not be set up (said on stderr).
 */
async function receivedFrameRate(
  images: SampleImages[],
  ocr: MrzOcr | undefined,
  faces: ReturnType<typeof createThreadedFaceMatcher>,
) {
  const passport = images.find((image) => image.mrz.length === 2) ?? images[0];
  if (!passport || !ocr) return null;
  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-checks-'));
  const video = join(dir, 'passport.y4m');
  writeFileSync(video, y4mOf(passport.front, 2));
  let call: ReceivingCall | undefined;
  try {
    call = await startReceivingCall(video);
    // The sender's encoder settles before anything is measured.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const figures = (f: { decoded: number; reported: number | null }) => ({
      'frames decoded / s': f.decoded.toFixed(1),
      'framesPerSecond (getStats)': f.reported?.toFixed(1) ?? 'n/a',
    });
    const idle = figures(await call.framesPerSecond(FPS_WINDOW_MS));
    let running = true;
    let checks = 0;
    const load = (async () => {
      for (let i = 0; running; i = (i + 1) % images.length) {
        const image = images[i] as SampleImages;
        await ocr.read(image.back);
        await faces.compare(sampleFacePhoto('a1'), image.front);
        checks++;
      }
    })();
    const busy = { ...figures(await call.framesPerSecond(FPS_WINDOW_MS)), 'checks done': String(checks) };
    running = false;
    await load;
    return { idle, busy };
  } catch (error) {
    console.error('The received frame rate was not measured:', error);
    return null;
  } finally {
    await call?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
