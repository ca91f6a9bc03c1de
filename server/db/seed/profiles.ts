import { sql } from 'drizzle-orm';
import {
  DOCUMENT_CLASSES,
  type DocumentClass,
  PROFILE_STATUSES,
  type ProfileStatus,
  RISK_LEVELS,
} from '#contract/common';
import { PROFILE_LOG_EVENTS, type ProfileLogCode, type ProfileLogParams } from '#contract/logEvents';
import { DAY_MS, HOUR_MS } from '#contract/time';
import { ipRisk, type RiskScores, riskScores } from '../../domain/riskScores';
import type { Db } from '../client';
import {
  amlHistory,
  amlResults,
  checklistAnswers,
  deviceData,
  documentAlerts,
  documentPages,
  documents,
  notes,
  profileLogs,
  profiles,
  questionnaireAnswers,
  videoCalls,
} from '../schema';
import { CARD_HEIGHT, CARD_WIDTH, SAMPLE_VARIANTS, sampleKey } from './images';
import type { Rng } from './prng';

export const FIRST_NAMES = [
  'Ayşe',
  'Mehmet',
  'Elif',
  'Can',
  'Zeynep',
  'Emre',
  'Anna',
  'Lukas',
  'Sophie',
  'Jonas',
  'Marie',
  'Luca',
  'Emma',
  'Noah',
  'Deniz',
  'Selin',
];
export const LAST_NAMES = [
  'Yılmaz',
  'Kaya',
  'Demir',
  'Şahin',
  'Çelik',
  'Müller',
  'Schmidt',
  'Dubois',
  'Rossi',
  'Janssen',
  'Nowak',
  'García',
  'Öztürk',
  'Aydın',
  'Weber',
  'Laurent',
];
export const CITIES: [province: string, city: string][] = [
  ['İstanbul', 'Kadıköy'],
  ['Ankara', 'Çankaya'],
  ['İzmir', 'Karşıyaka'],
  ['Berlin', 'Berlin'],
  ['Bayern', 'München'],
  ['Île-de-France', 'Paris'],
  ['Noord-Holland', 'Amsterdam'],
  ['Lazio', 'Roma'],
];
export const STREETS = [
  'Bağdat Caddesi',
  'Atatürk Bulvarı',
  'Hauptstraße',
  'Rue de Rivoli',
  'Damrak',
  'Via del Corso',
];
export const NATIONALITIES = ['TR', 'DE', 'FR', 'NL', 'IT', 'GB', 'AZ'];
export const SOURCES = ['sdk', 'studio', 'api', 'web'];
export const UPLOAD_SOURCES = ['sdk', 'studio', 'web'];
const ALERTS: [code: string, name: string][] = [
  ['MRZ_CHECKSUM', 'MRZ checksum mismatch'],
  ['PHOTO_TAMPERING', 'Possible photo tampering'],
  ['DOCUMENT_EXPIRED', 'Document expired'],
  ['FACE_MISMATCH', 'Face does not match the selfie'],
  ['DATA_MISMATCH', 'Extracted data differs from the profile'],
];
/** The demo log's events after `profile_created` (codes of contract/logEvents.ts), in turn. */
const LOG_EVENTS = [
  (_status: ProfileStatus) => logEvent('profile_updated', { fields: ['email'] }),
  (_status: ProfileStatus) => logEvent('note_added', { kind: 'note' }),
  (status: ProfileStatus) =>
    logEvent('status_changed', { from: status === 'Created' ? 'Incomplete' : 'Created', to: status }),
  (_status: ProfileStatus) => logEvent('profile_updated', { fields: ['phone', 'address'] }),
  (_status: ProfileStatus) => logEvent('note_added', { kind: 'agent' }),
];
function logEvent<C extends ProfileLogCode>(code: C, params: ProfileLogParams<C>) {
  return { action: code, data: PROFILE_LOG_EVENTS[code].parse(params) as Record<string, unknown> };
}
const DEVICES: [brand: string, model: string, os: string, osVersion: string, browser: string | null][] = [
  ['Apple', 'iPhone 15', 'iOS', '18.2', null],
  ['Samsung', 'Galaxy S24', 'Android', '15', null],
  ['Xiaomi', 'Redmi Note 13', 'Android', '14', null],
  ['Desktop', 'PC', 'Windows', '11', 'Chrome 142'],
  ['Apple', 'MacBook Air', 'macOS', '15.1', 'Safari 18'],
];
const CARRIERS = ['Turkcell', 'Vodafone', 'Telekom', 'Orange', null];
const CONTENT_CLASSES = new Set<DocumentClass>(['ID', 'DL', 'PA', 'VA']);
const CHECK_RESULTS = ['passed', 'passed', 'passed', 'warning', 'failed'] as const;

export interface ProfileSeedContext {
  companyId: number;
  rng: Rng;
  /** Base time: profile 0 is created just before it. */
  now: number;
  /** Spread creation dates over this many days. */
  spanDays: number;
  documentTypeIds: Map<DocumentClass, number>;
  sampleSizes: Map<string, number>;
  staffIds: number[];
  checklistQuestionIds: number[];
  questionnaire: { id: number; answerType: string; optionIds: number[] }[];
  amlProvider: string | null;
  /** Profiles (by index) that carry a name of the AML sample watchlist, so a screening finds a hit. */
  listedNames?: ReadonlyMap<number, { name: string; gender: string; nationality: string }>;
}

export function ascii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ı/g, 'i')
    .replace(/[^a-zA-Z]/g, '')
    .toLowerCase();
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Sets the IP risk of each profile from the address of its first device. */
async function scoreDeviceAddresses(db: Db, devices: (typeof deviceData.$inferInsert)[]): Promise<void> {
  const firstIp = new Map<number, string>();
  for (const device of devices)
    if (device.ip && !firstIp.has(device.profileId)) firstIp.set(device.profileId, device.ip);
  const rows = [...firstIp].map(([id, ip]) => sql`(${id}::int, ${ipRisk(ip)}::int)`);
  for (let i = 0; i < rows.length; i += 1000) {
    await db.execute(
      sql`UPDATE profiles AS p SET risk_scores = jsonb_set(coalesce(p.risk_scores, '{}'::jsonb), '{ip}', to_jsonb(v.score))
          FROM (VALUES ${sql.join(rows.slice(i, i + 1000), sql`, `)}) AS v(id, score) WHERE p.id = v.id`,
    );
  }
}

/** Inserts in chunks that stay far below PostgreSQL's 65,535 parameters per statement. */
export async function insertAll<T extends Record<string, unknown>>(
  db: Db,
  table: Parameters<Db['insert']>[0],
  rows: T[],
  size = 1000,
) {
  for (let i = 0; i < rows.length; i += size) await db.insert(table).values(rows.slice(i, i + size) as never);
}

/** Document classes of a profile's n-th document. */
function documentClassFor(index: number, n: number): DocumentClass {
  if (n === 0) return index % 4 === 3 ? 'PA' : 'ID';
  if (n === 1) return 'SE';
  const rest = DOCUMENT_CLASSES.filter((c) => !['ID', 'SE', 'PA'].includes(c));
  return rest[index % rest.length] as DocumentClass;
}

function documentsFor(status: ProfileStatus, index: number): number {
  if (status === 'Created' || status === 'Pending Upload') return 0;
  return 1 + (index % 3);
}

/**
 * Seeds `count` profiles of one company, numbered from `firstIndex` (statuses and risk levels follow the
 * index, so every status × risk pair appears in any 66 consecutive profiles), with their documents,
 * pages, alerts, device data, notes, logs, AML results and history, calls and answers.
 * Inserts 500 profiles at a time with multi-row inserts.
 */
export async function seedProfiles(
  db: Db,
  ctx: ProfileSeedContext,
  firstIndex: number,
  count: number,
): Promise<number[]> {
  const ids: number[] = [];
  const step = Math.max(60_000, Math.floor((ctx.spanDays * DAY_MS) / Math.max(count, 1)));
  for (let start = 0; start < count; start += 500) {
    const batch = Array.from({ length: Math.min(500, count - start) }, (_, k) => firstIndex + start + k);
    ids.push(...(await seedBatch(db, ctx, batch, step, firstIndex)));
  }
  return ids;
}

async function seedBatch(
  db: Db,
  ctx: ProfileSeedContext,
  indexes: number[],
  step: number,
  firstIndex: number,
): Promise<number[]> {
  const { rng } = ctx;
  const profileRows = indexes.map((i) => {
    const first = rng.pick(FIRST_NAMES);
    const last = rng.pick(LAST_NAMES);
    const status = PROFILE_STATUSES[i % PROFILE_STATUSES.length] as ProfileStatus;
    const createdAt = ctx.now - (i - firstIndex + 1) * step - rng.int(0, 50_000);
    const updatedAt = Math.min(ctx.now, createdAt + rng.int(0, 48) * HOUR_MS);
    const [province, city] = rng.pick(CITIES);
    return {
      companyId: ctx.companyId,
      idCardNumber: rng.digits(11),
      name: `${first} ${last}`,
      gender: rng.pick(['M', 'F']),
      email: `${ascii(first)}.${ascii(last)}${i}@example.com`,
      phone: `+90 5${rng.digits(2)} ${rng.digits(3)} ${rng.digits(4)}`,
      nationality: rng.pick(NATIONALITIES),
      dateOfBirth: day(Date.UTC(1950 + rng.int(0, 55), rng.int(0, 11), rng.int(1, 28))),
      addressProvince: province,
      addressCity: city,
      addressStreet: `${rng.pick(STREETS)} ${rng.int(1, 250)}`,
      status,
      riskLevel: RISK_LEVELS[Math.floor(i / PROFILE_STATUSES.length) % RISK_LEVELS.length] as string,
      rejectReason:
        status === 'Rejected' || status === 'Blacklisted'
          ? 'Document photo does not match the customer'
          : null,
      extraData: {
        government_check: {
          verified: rng.chance(0.8),
          mother_name: rng.pick(FIRST_NAMES),
          father_name: rng.pick(FIRST_NAMES),
          registry_place: province,
          checked_at: new Date(updatedAt).toISOString(),
        },
      },
      source: rng.pick(SOURCES),
      qualityCheck: { score: rng.int(40, 100), blur: rng.chance(0.1), glare: rng.chance(0.15) },
      aliases: rng.chance(0.1) ? [`${first} ${rng.pick(LAST_NAMES)}`] : [],
      riskScores: null as RiskScores | null,
      createdAt: new Date(createdAt),
      updatedAt: new Date(updatedAt),
      lastStatusDate: status === 'Created' ? null : new Date(updatedAt),
    };
  });
  // Names taken from the AML sample watchlist (after the draws above, so the random sequence is unchanged).
  indexes.forEach((i, k) => {
    const listed = ctx.listedNames?.get(i);
    const row = profileRows[k];
    if (!listed || !row) return;
    const email = `${listed.name.split(' ').map(ascii).join('.')}${i}@example.com`;
    Object.assign(row, { ...listed, email, aliases: [] });
  });
  // Risk scores by the documented rules (server/domain/riskScores.ts); the IP is the first device's.
  for (const row of profileRows) {
    row.riskScores = riskScores({
      email: row.email,
      phone: row.phone,
      nationality: row.nationality,
      ip: null,
    });
  }
  const inserted = await db.insert(profiles).values(profileRows).returning({ id: profiles.id });
  const profileIds = inserted.map((r) => r.id);

  // Documents
  const docRows: (typeof documents.$inferInsert)[] = [];
  const docMeta: { profileIndex: number; documentClass: DocumentClass; index: number }[] = [];
  indexes.forEach((i, k) => {
    const profile = profileRows[k] as (typeof profileRows)[number];
    const status = profile.status;
    for (let n = 0; n < documentsFor(status, i); n++) {
      const documentClass = documentClassFor(i, n);
      const createdAt = new Date(profile.createdAt.getTime() + (n + 1) * 60_000);
      const checks = Object.fromEntries(
        ['document', 'fraud', 'biometric', 'cross'].map((kind) => [
          kind,
          { result: rng.pick(CHECK_RESULTS), score: rng.int(30, 100) },
        ]),
      );
      const content: Record<string, string | null> = CONTENT_CLASSES.has(documentClass)
        ? {
            IDNumber: profile.idCardNumber,
            FirstName: profile.name.split(' ')[0] ?? null,
            LastName: profile.name.split(' ').slice(1).join(' ') || null,
            BirthDate: profile.dateOfBirth,
            ExpiryDate: day(ctx.now + rng.int(-200, 3000) * DAY_MS),
            DocumentNumber: `${documentClass}${rng.digits(8)}`,
            IssueDate: day(ctx.now - rng.int(100, 3000) * DAY_MS),
            IssuePlace: profile.addressProvince,
            BirthPlace: rng.pick(CITIES)[1],
          }
        : {};
      docRows.push({
        companyId: ctx.companyId,
        profileId: profileIds[k] as number,
        documentTypeId: ctx.documentTypeIds.get(documentClass) ?? null,
        documentClass,
        uploadSource: rng.pick(UPLOAD_SOURCES),
        stream: rng.chance(0.2),
        cropped: rng.chance(0.5),
        rotated: rng.chance(0.1),
        archived: n > 0 && rng.chance(0.12),
        status: ['Approved', 'Temporarily Approved'].includes(status)
          ? 'approved'
          : ['Rejected', 'Blacklisted'].includes(status)
            ? 'rejected'
            : 'pending_review',
        expiryDate: content.ExpiryDate ?? null,
        checks,
        content,
        createdAt,
      });
      docMeta.push({ profileIndex: k, documentClass, index: i + n });
    }
  });
  const docIds: number[] = [];
  for (let s = 0; s < docRows.length; s += 1000) {
    const rows = await db
      .insert(documents)
      .values(docRows.slice(s, s + 1000))
      .returning({ id: documents.id });
    docIds.push(...rows.map((r) => r.id));
  }

  const pageRows: (typeof documentPages.$inferInsert)[] = [];
  const alertRows: (typeof documentAlerts.$inferInsert)[] = [];
  const deviceRows: (typeof deviceData.$inferInsert)[] = [];
  docMeta.forEach((meta, d) => {
    const documentId = docIds[d] as number;
    const pagesCount = meta.documentClass === 'ID' || meta.documentClass === 'DL' ? 2 : 1;
    for (let p = 1; p <= pagesCount; p++) {
      const key = sampleKey(meta.documentClass, (meta.index + p) % SAMPLE_VARIANTS);
      pageRows.push({
        documentId,
        pageNumber: p,
        storageKey: key,
        contentType: 'image/png',
        size: ctx.sampleSizes.get(key) ?? 0,
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
      });
    }
    const alertCount = rng.int(0, 2);
    for (let a = 0; a < alertCount; a++) {
      const [code, name] = ALERTS[(meta.index + a) % ALERTS.length] as [string, string];
      alertRows.push({
        documentId,
        profileId: profileIds[meta.profileIndex] as number,
        code,
        name,
        result: rng.pick(['warning', 'failed'] as const),
      });
    }
    const isFirstOfProfile = d === 0 || docMeta[d - 1]?.profileIndex !== meta.profileIndex;
    if (isFirstOfProfile) {
      const [brand, model, os, osVersion, browser] = rng.pick(DEVICES);
      deviceRows.push({
        profileId: profileIds[meta.profileIndex] as number,
        documentId,
        brand,
        model,
        carrier: browser ? null : rng.pick(CARRIERS),
        os,
        osVersion,
        sdkVersion: browser ? null : `3.${rng.int(0, 9)}.${rng.int(0, 20)}`,
        browser,
        useragent: browser
          ? `Mozilla/5.0 (${os} ${osVersion}) ${browser}`
          : `IDV-SDK/${os} ${osVersion} (${brand} ${model})`,
        ip: `85.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
      });
    }
  });
  await insertAll(db, documentPages, pageRows);
  await insertAll(db, documentAlerts, alertRows);
  await insertAll(db, deviceData, deviceRows);
  await scoreDeviceAddresses(db, deviceRows);

  // Notes, logs, AML, calls, checklist and questionnaire answers
  const noteRows: (typeof notes.$inferInsert)[] = [];
  const logRows: (typeof profileLogs.$inferInsert)[] = [];
  const amlRows: (typeof amlResults.$inferInsert)[] = [];
  const amlHistoryRows: (typeof amlHistory.$inferInsert)[] = [];
  const callRows: (typeof videoCalls.$inferInsert)[] = [];
  const checklistRows: (typeof checklistAnswers.$inferInsert)[] = [];
  const questionnaireRows: (typeof questionnaireAnswers.$inferInsert)[] = [];
  indexes.forEach((i, k) => {
    const profileId = profileIds[k] as number;
    const profile = profileRows[k] as (typeof profileRows)[number];
    const created = profile.createdAt.getTime();
    const staff = () => (ctx.staffIds.length > 0 ? rng.pick(ctx.staffIds) : null);
    if (i % 4 === 0) {
      const count = 1 + (i % 2);
      for (let n = 0; n < count; n++) {
        noteRows.push({
          profileId,
          authorId: staff(),
          kind: n === 0 ? 'note' : 'agent',
          note:
            n === 0
              ? 'Customer called to ask about the review time.'
              : 'Agent checked the documents during the call.',
          createdAt: new Date(created + (n + 2) * HOUR_MS),
        });
      }
    }
    // The first profile has a long log so paging by after_id is visible.
    const logCount = i === 0 ? 45 : 3 + (i % 5);
    logRows.push({
      profileId,
      ...logEvent('profile_created', { id_card_number: profile.idCardNumber }),
      createdAt: new Date(created),
    });
    for (let n = 1; n < logCount; n++) {
      const event = LOG_EVENTS[(i + n) % LOG_EVENTS.length] as (typeof LOG_EVENTS)[number];
      logRows.push({
        profileId,
        actorId: staff(),
        ...event(profile.status as ProfileStatus),
        createdAt: new Date(created + n * 600_000),
      });
    }
    if (ctx.amlProvider && i % 2 === 0) {
      const hit = i % 6 === 0;
      const records = hit
        ? [
            {
              name: profile.name,
              list: 'OFAC SDN',
              match_score: rng.int(60, 99),
              country: profile.nationality,
              category: 'Sanctions',
            },
          ]
        : [];
      amlRows.push({
        profileId,
        lists: hit ? ['OFAC SDN', 'EU Consolidated'] : [],
        score: hit ? rng.int(60, 99) : rng.int(0, 20),
        records,
        approved: hit ? null : true,
        approvedBy: hit ? null : staff(),
        approvedAt: hit ? null : new Date(created + DAY_MS),
        updatedAt: new Date(created + DAY_MS),
      });
      const historyCount = 1 + (i % 3);
      for (let n = 0; n < historyCount; n++) {
        const latest = n === historyCount - 1;
        amlHistoryRows.push({
          profileId,
          provider: ctx.amlProvider,
          status: latest && hit ? 'hit' : 'clear',
          scannedDatabase: rng.pick([
            'OFAC SDN',
            'EU Consolidated',
            'UN Sanctions',
            'PEP Global',
            'Adverse Media',
          ]),
          matches: latest && hit ? records.length : 0,
          records: latest ? records : [],
          createdAt: new Date(created + (n + 1) * DAY_MS),
        });
      }
    }
    if (i % 3 === 0) {
      const count = 1 + (i % 2);
      for (let n = 0; n < count; n++) {
        // Past calls: MISSED (2) or ended with an agent's status (3..9); none is still waiting or talking.
        // The random draws stay those of the first demo data, so everything seeded after is unchanged.
        const drawsAgent = ![0, 2].includes((i + n) % 10);
        const agent = drawsAgent ? staff() : null;
        const seconds = (i + n) % 10 > 2 ? rng.int(120, 900) : 300;
        const status = 2 + ((i + n) % 8);
        const start = created + (n + 1) * 7_200_000;
        const missed = status === 2;
        callRows.push({
          companyId: ctx.companyId,
          profileId,
          agentId: missed ? null : (agent ?? ctx.staffIds[0] ?? null),
          roomId: `room-${profileId}-${n + 1}`,
          status,
          callStartTime: missed ? null : new Date(start),
          callEndTime: new Date(start + (missed ? 60 : seconds) * 1000),
          createdAt: new Date(start - 30_000),
        });
      }
    }
    if (i % 5 === 0) {
      ctx.checklistQuestionIds.slice(0, 3).forEach((questionId, n) => {
        checklistRows.push({
          profileId,
          questionId,
          value: n !== 2 || rng.chance(0.5),
          note: n === 0 ? 'Checked against the original document' : null,
          answeredBy: staff(),
          createdAt: new Date(created + DAY_MS),
        });
      });
    }
    if (i % 4 === 0) {
      for (const q of ctx.questionnaire) {
        const skipped = rng.chance(0.1);
        const options = q.optionIds;
        questionnaireRows.push({
          profileId,
          questionId: q.id,
          skipped,
          singleOptionAnswer: !skipped && q.answerType === 'single_choice' ? rng.pick(options) : null,
          multipleOptionAnswer:
            !skipped && q.answerType === 'multiple_choice' ? options.filter(() => rng.chance(0.5)) : [],
          typedAnswer: null,
          createdAt: new Date(created + 30 * 60_000),
        });
      }
    }
  });
  await insertAll(db, notes, noteRows);
  await insertAll(db, profileLogs, logRows);
  await insertAll(db, amlResults, amlRows);
  await insertAll(db, amlHistory, amlHistoryRows);
  await insertAll(db, videoCalls, callRows);
  await insertAll(db, checklistAnswers, checklistRows);
  await insertAll(db, questionnaireAnswers, questionnaireRows);
  return profileIds;
}
