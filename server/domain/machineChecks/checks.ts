/**
 * The machine checks of a guided call's screenshots, run when the agent takes one: the face screenshot against
 * the ID front's portrait (the shipped face model), and the MRZ of the ID back or passport page (OCR, then the
 * `mrz` parser and the cross-checks with the profile). Each run is one row of `video_call_checks`, written once
 * when it ends, and told to the call's agent. Hints only: the agent decides every step; passing the face step
 * against a "faces differ" hint needs a reason (`./override.ts`).
 */
import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type {
  CheckEngine,
  FaceMatchResult,
  MachineCheck,
  MachineCheckKind,
  MrzResult,
} from '#contract/machineChecks';
import type { DbOrTx } from '../../db/client';
import { profiles, videoCallChecks, videoCallScreenshots, videoCallSteps } from '../../db/schema';
import type { FaceMatcher } from '../../integrations/faceMatch';
import { decodeImage } from '../../integrations/images';
import type { MrzOcr } from '../../integrations/mrzOcr';
import type { Storage } from '../../storage/storage';
import { documentNumbersOnFile } from '../callGuide';
import { iso } from '../format';
import { requireCall } from '../videocalls/calls';
import { crossChecks, type OnFile } from './crossChecks';
import { readMrz } from './mrz';

type CheckRow = typeof videoCallChecks.$inferSelect;

export function toMachineCheck(row: CheckRow): MachineCheck {
  const base = {
    id: row.id,
    call: row.callId,
    screenshots: row.screenshotIds,
    status: row.status as MachineCheck['status'],
    engine: row.engine,
    created_at: iso(row.createdAt),
    finished_at: row.finishedAt ? iso(row.finishedAt) : null,
    duration_ms: row.durationMs,
  };
  return row.kind === 'face_match'
    ? { kind: 'face_match', ...base, result: row.result as FaceMatchResult | null }
    : { kind: 'mrz', ...base, result: row.result as MrzResult | null };
}

/** What the checks need: the stored screenshots, the engines and the face threshold. */
export interface CheckDeps {
  db: DbOrTx;
  storage: Storage;
  faceMatcher: FaceMatcher;
  faceEngine: CheckEngine;
  ocr: MrzOcr;
  /** The least similarity taken as "likely the same person" (MACHINE_CHECK_FACE_THRESHOLD). */
  faceThreshold: number;
  now?: () => Date;
}

async function readAll(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.open(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The image when it decodes (a screenshot is only sniffed when stored); null otherwise. */
function decodable(bytes: Buffer): Buffer | null {
  try {
    decodeImage(bytes);
    return bytes;
  } catch {
    return null;
  }
}

/** The hint of a face comparison: likely the same person at or above the threshold, else the faces differ. */
export function faceHint(
  comparison: Awaited<ReturnType<FaceMatcher['compare']>>,
  threshold: number,
): FaceMatchResult {
  if (comparison.outcome === 'unavailable') return { outcome: 'unavailable', similarity: null, threshold };
  if (comparison.similarity === null) {
    const outcome =
      comparison.outcome === 'no_match' && comparison.noFaceIn === 'reference'
        ? 'no_face_on_screenshot'
        : 'no_face_on_id';
    return { outcome, similarity: null, threshold };
  }
  const similarity = Math.round(comparison.similarity * 100) / 100;
  return { outcome: comparison.similarity >= threshold ? 'likely_same' : 'differ', similarity, threshold };
}

async function latestShot(db: DbOrTx, callId: number, kind: string) {
  const [row] = await db
    .select({ id: videoCallScreenshots.id, key: videoCallScreenshots.storageKey })
    .from(videoCallScreenshots)
    .where(
      and(
        eq(videoCallScreenshots.callId, callId),
        eq(videoCallScreenshots.kind, kind),
        isNotNull(videoCallScreenshots.storageKey),
      ),
    )
    .orderBy(desc(videoCallScreenshots.id))
    .limit(1);
  return row?.key ? { id: row.id, key: row.key } : null;
}

async function record(
  deps: CheckDeps,
  run: {
    callId: number;
    kind: MachineCheckKind;
    screenshots: number[];
    engine: CheckEngine;
    started: Date;
    work: () => Promise<Record<string, unknown>>;
  },
): Promise<MachineCheck> {
  let status = 'done';
  let result: Record<string, unknown> | null = null;
  let error: string | null = null;
  try {
    result = await run.work();
  } catch (failure) {
    status = 'failed';
    error = failure instanceof Error ? failure.message.slice(0, 500) : 'check failed';
  }
  const finished = deps.now?.() ?? new Date();
  const [row] = await deps.db
    .insert(videoCallChecks)
    .values({
      callId: run.callId,
      kind: run.kind,
      screenshotIds: run.screenshots,
      status,
      engine: run.engine,
      result,
      error,
      createdAt: run.started,
      finishedAt: finished,
      durationMs: Math.max(0, finished.getTime() - run.started.getTime()),
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toMachineCheck(row);
}

/**
 * Compares the call's latest face screenshot with its latest ID front; null until both exist. The face
 * screenshot is the reference (its embedding is kept by the matcher), the ID front the probe: the detector
 * finds the small printed portrait on the whole card.
 */
export async function runFaceMatch(deps: CheckDeps, callId: number): Promise<MachineCheck | null> {
  const face = await latestShot(deps.db, callId, 'face_screenshot');
  const front = await latestShot(deps.db, callId, 'id_front');
  if (!face || !front) return null;
  const started = deps.now?.() ?? new Date();
  return record(deps, {
    callId,
    kind: 'face_match',
    screenshots: [face.id, front.id],
    engine: deps.faceEngine,
    started,
    work: async () => {
      const reference = decodable(await readAll(deps.storage, face.key));
      const probe = decodable(await readAll(deps.storage, front.key));
      if (!reference || !probe) {
        const outcome = reference ? 'no_face_on_id' : 'no_face_on_screenshot';
        return { outcome, similarity: null, threshold: deps.faceThreshold };
      }
      return faceHint(await deps.faceMatcher.compare(reference, probe), deps.faceThreshold);
    },
  });
}

/** What the reading is compared with: the profile, its document numbers, the serial the customer typed. */
async function onFileOf(
  db: DbOrTx,
  call: { id: number; profileId: number; companyId: number },
): Promise<OnFile> {
  const [profile] = await db
    .select({
      name: profiles.name,
      birthDate: profiles.dateOfBirth,
      nationality: profiles.nationality,
      idCardNumber: profiles.idCardNumber,
    })
    .from(profiles)
    .where(eq(profiles.id, call.profileId));
  const [typed] = await db
    .select({ details: videoCallSteps.details })
    .from(videoCallSteps)
    .where(
      and(
        eq(videoCallSteps.callId, call.id),
        eq(videoCallSteps.kind, 'serial_number'),
        isNull(videoCallSteps.createdBy),
      ),
    )
    .orderBy(desc(videoCallSteps.id))
    .limit(1);
  const idNumbers = [profile?.idCardNumber ?? '', ...(await documentNumbersOnFile(db, call))].filter(
    (n) => n.trim() !== '',
  );
  const typedSerial = typed?.details.typed;
  return {
    name: profile?.name ?? null,
    birthDate: profile?.birthDate ?? null,
    nationality: profile?.nationality ?? null,
    idNumbers: [...new Set(idNumbers)],
    typedSerial: typeof typedSerial === 'string' ? typedSerial : null,
  };
}

/** Reads the MRZ of one ID back or front (a passport's data page) screenshot and compares it with the profile. */
export async function runMrz(
  deps: CheckDeps,
  call: { id: number; profileId: number; companyId: number },
  shot: { id: number; key: string },
): Promise<MachineCheck> {
  const started = deps.now?.() ?? new Date();
  return record(deps, {
    callId: call.id,
    kind: 'mrz',
    screenshots: [shot.id],
    engine: deps.ocr.engine,
    started,
    work: async (): Promise<MrzResult> => {
      const onFile = await onFileOf(deps.db, call);
      const image = decodable(await readAll(deps.storage, shot.key));
      const read = image ? await deps.ocr.read(image) : null;
      if (image && !read)
        return { outcome: 'unavailable', reading: null, ocr_confidence: null, cross_checks: [] };
      const reading = read ? readMrz(read.text, deps.now?.() ?? new Date()) : null;
      return {
        outcome: reading ? 'read' : 'not_found',
        reading,
        ocr_confidence: read ? Math.round(read.confidence) : null,
        cross_checks: crossChecks(reading, onFile),
      };
    },
  });
}

/** The checks of a call of the company, in the order they ended (404 for another company's call). */
export async function callChecks(db: DbOrTx, companyId: number, callId: number): Promise<MachineCheck[]> {
  await requireCall(db, companyId, callId);
  return checksOf(db, callId);
}

/** Every check of a call, in the order they ended. */
export async function checksOf(db: DbOrTx, callId: number): Promise<MachineCheck[]> {
  const rows = await db
    .select()
    .from(videoCallChecks)
    .where(eq(videoCallChecks.callId, callId))
    .orderBy(asc(videoCallChecks.id));
  return rows.map(toMachineCheck);
}
