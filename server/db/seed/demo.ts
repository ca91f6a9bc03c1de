import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { count, eq, getTableName, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { DOCUMENT_CLASSES, type Role, SERVICES } from '#contract/common';
import type { StartPage } from '#contract/constants';
import { DAY_MS, HOUR_MS } from '#contract/time';
import { WEBHOOK_EVENTS } from '#contract/webhooks';
import { hashPassword, type PasswordCost } from '../../auth/passwords';
import type { SecretBox } from '../../auth/secrets';
import { sampleFacePhoto } from '../../integrations/faceSamples';
import type { Storage } from '../../storage/storage';
import type { Db } from '../client';
import * as schema from '../schema';
import {
  checklistGroups,
  checklistQuestions,
  companies,
  groups,
  payments,
  questionnaireQuestions,
  userGroups,
  users,
  videoCallQuestions,
  webhookDeliveries,
  webhookEndpoints,
  webhookEventToggles,
  webhookLogs,
  webhookMessages,
  webhookSettings,
} from '../schema';
import { seedBulkProfiles } from './bulk';
import { ensureSampleImages, SAMPLE_VARIANTS, sampleKey } from './images';
import { createRng } from './prng';
import { seedProfiles } from './profiles';
import { seedReference } from './reference';
import { seedReview } from './review';
import { seedTransactions } from './transactions';

/** Base time of the demo data: every date is relative to it, so tests know the answers. */
export const DEMO_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
export const DEMO_PROFILES_ACME = 240;
export const DEMO_PROFILES_GLOBEX = 30;
/**
 * Acme's profiles written one by one in JavaScript with every detail (profiles.ts); the ones past it come
 * from set-based SQL (bulk.ts): 10,000 rich profiles take about 24 s here, a million would take 40
 * minutes. Every count up to it writes exactly what it always did (the tests and the benches rely on it).
 */
export const RICH_PROFILES_MAX = 10_000;

/** The TOTP secret of the demo user with two-factor on (printed so a code can be made). */
export const DEMO_MFA_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

export interface DemoUser {
  email: string;
  password: string;
  company: 'Acme Bank' | 'Globex Fintech';
  role: Role;
  note?: string;
  firstName: string;
  lastName: string;
  flags?: {
    forcePasswordReset?: boolean;
    forceMfaReset?: boolean;
    isApiUser?: boolean;
    mfa?: boolean;
    superuser?: boolean;
    /** An auth photo (sample face `a1`): login needs a face photo that matches it. */
    authPhoto?: boolean;
    /** Works only the reviewers' desk: not among the staff of the seeded profiles, calls and notes. */
    deskOnly?: boolean;
  };
  groups?: string[];
  /** The screen `/` opens; 'customers' when left out. */
  startPage?: StartPage;
}

export const DEMO_USERS: DemoUser[] = [
  {
    email: 'admin@acme.test',
    password: 'Admin@2026',
    company: 'Acme Bank',
    role: 'Admin',
    firstName: 'Ada',
    lastName: 'Admin',
    flags: { superuser: true },
    groups: ['Supervisors'],
  },
  {
    email: 'agent@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Umut',
    lastName: 'Agent',
    groups: ['Reviewers'],
  },
  {
    email: 'viewer@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'Restricted User',
    firstName: 'Rita',
    lastName: 'Viewer',
  },
  {
    email: 'mfa@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Mert',
    lastName: 'Twofactor',
    note: `two-factor on, TOTP secret ${DEMO_MFA_SECRET}`,
    flags: { mfa: true },
  },
  {
    email: 'reset@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Rana',
    lastName: 'Reset',
    note: 'forced password reset',
    flags: { forcePasswordReset: true },
  },
  {
    email: 'mfa-reset@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Tolga',
    lastName: 'Reset',
    note: 'forced two-factor reset',
    flags: { forceMfaReset: true },
  },
  {
    email: 'api@acme.test',
    password: 'Api@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'API',
    lastName: 'Client',
    note: 'API user: never stored as a studio session',
    flags: { isApiUser: true },
  },
  {
    email: 'shared@demo.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Sam',
    lastName: 'Shared',
    note: 'in both regions: login asks which',
  },
  {
    email: 'shared@demo.test',
    password: 'User@2026',
    company: 'Globex Fintech',
    role: 'Admin',
    firstName: 'Sam',
    lastName: 'Shared',
    note: 'in both regions: login asks which',
  },
  {
    email: 'admin@globex.test',
    password: 'Admin@2026',
    company: 'Globex Fintech',
    role: 'Admin',
    firstName: 'Gül',
    lastName: 'Admin',
  },
  {
    email: 'face@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Fatih',
    lastName: 'Face',
    note: 'auth photo: login needs a matching face photo (sample face a2)',
    flags: { authPhoto: true },
  },
  {
    email: 'reviewer@acme.test',
    password: 'User@2026',
    company: 'Acme Bank',
    role: 'User',
    firstName: 'Rüya',
    lastName: 'Reviewer',
    note: "reviewers' desk with second review (four-eyes checker); signing in opens the desk",
    flags: { deskOnly: true },
    groups: ['Reviewers', 'Senior reviewers'],
    startPage: 'review',
  },
];

/** Storage key of the demo auth photo (a `samples/` key: write paths never delete it). */
export const DEMO_AUTH_PHOTO_KEY = 'samples/auth-photo-a1.jpg';

/** True when no company exists yet (first start). */
export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ value: count() }).from(companies);
  return (row?.value ?? 0) === 0;
}

/**
 * Acme profile 26 (index 25, Pending Review, never screened) bears a name of the AML sample watchlist
 * (OFAC SDN "GENCOGLU, Serhat", server/integrations/aml/sampleWatchlist.json): running its AML check
 * shows a hit.
 */
export const DEMO_LISTED_NAMES: ReadonlyMap<number, { name: string; gender: string; nationality: string }> =
  new Map([[25, { name: 'Serhat Gençoğlu', gender: 'M', nationality: 'TR' }]]);

/**
 * Removes every row of every table (seed --reset) but the server's own keys (the evidence signing key). The
 * access log refuses TRUNCATE: its rows go the one way it allows a delete, and its chain starts again.
 */
export async function truncateAll(db: Db): Promise<void> {
  const names = Object.values(schema)
    .filter((t) => (t as unknown) instanceof PgTable && t !== schema.serverKeys && t !== schema.accessLog)
    .map((t) => `"${getTableName(t as PgTable)}"`);
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL idv.access_log_prune = 'on'`));
    await tx.delete(schema.accessLog);
    await tx.execute(sql.raw(`TRUNCATE ${names.join(', ')} RESTART IDENTITY CASCADE`));
  });
}

async function seedCompanies(db: Db) {
  const [acme, globex] = await db
    .insert(companies)
    .values([
      {
        name: 'Acme Bank',
        region: 'Europe',
        amlProvider: 'Local AML lists',
        activeServices: [...SERVICES],
        industry: 'Banking',
        packageId: 2,
        paymentStatus: 'paid',
      },
      {
        name: 'Globex Fintech',
        region: 'Türkiye',
        amlProvider: null,
        activeServices: ['verification', 'video_kyc'],
        industry: 'Payments',
        packageId: 1,
        paymentStatus: 'paid',
      },
    ])
    .returning();
  if (!acme || !globex) throw new Error('companies not created');
  const groupRows = await db
    .insert(groups)
    .values([
      {
        companyId: acme.id,
        name: 'Reviewers',
        permissions: ['view_profiles_page', 'view_reports_page', 'review_profiles'],
      },
      {
        companyId: acme.id,
        name: 'Supervisors',
        permissions: ['view_calls_page', 'view_dashboard_page', 'view_reports_page'],
      },
      { companyId: globex.id, name: 'Operators', permissions: ['view_profiles_page', 'view_calls_page'] },
      // Checkers of the four-eyes rule (Admins have both permissions by their role).
      { companyId: acme.id, name: 'Senior reviewers', permissions: ['review_profiles', 'second_review'] },
    ])
    .returning();
  return { acme, globex, groupRows };
}

async function seedUsers(
  db: Db,
  storage: Storage,
  secrets: SecretBox,
  cost: PasswordCost,
  companyIds: Record<DemoUser['company'], number>,
  groupRows: { id: number; companyId: number; name: string }[],
) {
  if (DEMO_USERS.some((u) => u.flags?.authPhoto) && (await storage.size(DEMO_AUTH_PHOTO_KEY)) === null) {
    await storage.put(DEMO_AUTH_PHOTO_KEY, Readable.from([sampleFacePhoto('a1')]));
  }
  const hashes = new Map<string, string>();
  for (const password of new Set(DEMO_USERS.map((u) => u.password)))
    hashes.set(password, await hashPassword(password, cost));
  const rows = await db
    .insert(users)
    .values(
      DEMO_USERS.map((u) => ({
        companyId: companyIds[u.company],
        email: u.email,
        firstName: u.firstName,
        lastName: u.lastName,
        phone: '+90 555 000 00 00',
        passwordHash: hashes.get(u.password) as string,
        role: u.role,
        isSuperuser: u.flags?.superuser ?? false,
        isStaff: u.role === 'Admin',
        isApiUser: u.flags?.isApiUser ?? false,
        mfaSecret: u.flags?.mfa ? secrets.seal(DEMO_MFA_SECRET) : null,
        forcePasswordReset: u.flags?.forcePasswordReset ?? false,
        forceMfaReset: u.flags?.forceMfaReset ?? false,
        photoKey: u.flags?.authPhoto ? DEMO_AUTH_PHOTO_KEY : null,
        startPage: u.startPage ?? 'customers',
      })),
    )
    .returning({ id: users.id, companyId: users.companyId, role: users.role });
  const links = DEMO_USERS.flatMap((u, i) =>
    (u.groups ?? []).map((name) => {
      const group = groupRows.find((g) => g.name === name && g.companyId === companyIds[u.company]);
      return { userId: rows[i]?.id as number, groupId: group?.id as number };
    }),
  );
  if (links.length > 0) await db.insert(userGroups).values(links);
  return rows;
}

async function seedCompanyConfig(db: Db, companyId: number, full: boolean) {
  const groupsInserted = await db
    .insert(checklistGroups)
    .values(
      full
        ? [
            { companyId, name: 'Identity', nameTr: 'Kimlik', sortOrder: 1 },
            { companyId, name: 'Address', nameTr: 'Adres', sortOrder: 2 },
          ]
        : [{ companyId, name: 'Identity', nameTr: 'Kimlik', sortOrder: 1 }],
    )
    .returning();
  const questions = await db
    .insert(checklistQuestions)
    .values(
      groupsInserted.flatMap((g) =>
        g.name === 'Identity'
          ? [
              {
                groupId: g.id,
                question: 'Does the photo match the selfie?',
                questionTr: 'Fotoğraf özçekimle eşleşiyor mu?',
                sortOrder: 1,
              },
              {
                groupId: g.id,
                question: 'Is the document valid and not expired?',
                questionTr: 'Belge geçerli ve süresi dolmamış mı?',
                sortOrder: 2,
              },
              {
                groupId: g.id,
                question: 'Do the name and birth date match the profile?',
                questionTr: 'Ad ve doğum tarihi profille eşleşiyor mu?',
                sortOrder: 3,
              },
            ]
          : [
              {
                groupId: g.id,
                question: 'Is the utility bill younger than 3 months?',
                questionTr: 'Fatura 3 aydan yeni mi?',
                sortOrder: 1,
              },
              {
                groupId: g.id,
                question: 'Does the address match the profile?',
                questionTr: 'Adres profille eşleşiyor mu?',
                sortOrder: 2,
              },
            ],
      ),
    )
    .returning({ id: checklistQuestions.id });

  const titles: [en: string, tr: string][] = [
    ['What is the purpose of your account?', 'Hesabınızın amacı nedir?'],
    ['What is your employment status?', 'Çalışma durumunuz nedir?'],
    ['What is your expected monthly volume?', 'Beklediğiniz aylık işlem hacmi nedir?'],
    ['Which products are you interested in?', 'Hangi ürünlerle ilgileniyorsunuz?'],
    ['What is the source of your funds?', 'Fonlarınızın kaynağı nedir?'],
    ['Do you hold a public office?', 'Bir kamu görevinde bulunuyor musunuz?'],
    ['Which countries will you send money to?', 'Hangi ülkelere para göndereceksiniz?'],
    ['How did you hear about us?', 'Bizi nereden duydunuz?'],
    ['Will you act on behalf of a third party?', 'Üçüncü bir kişi adına mı işlem yapacaksınız?'],
    ['Which channels do you prefer for contact?', 'İletişim için hangi kanalları tercih edersiniz?'],
  ];
  const questionnaire = await db
    .insert(questionnaireQuestions)
    .values(
      titles.slice(0, full ? 10 : 3).map(([title, titleTr], i) => {
        const multiple = [3, 6, 9].includes(i);
        return {
          companyId,
          title,
          titleTr,
          answerType: multiple ? 'multiple_choice' : 'single_choice',
          optional: i >= 7,
          sortOrder: i + 1,
          answers: Array.from({ length: 3 + (i % 2) }, (_, k) => ({
            id: k + 1,
            text: `Option ${k + 1}`,
            text_tr: `Seçenek ${k + 1}`,
          })),
        };
      }),
    )
    .returning();

  await db.insert(videoCallQuestions).values([
    {
      companyId,
      sortOrder: 1,
      textEn: 'Please hold your ID card next to your face.',
      textTr: 'Lütfen kimlik kartınızı yüzünüzün yanında tutun.',
    },
    {
      companyId,
      sortOrder: 2,
      textEn: 'Please state your full name.',
      textTr: 'Lütfen adınızı ve soyadınızı söyleyin.',
    },
    { companyId, sortOrder: 3, textEn: 'What is your date of birth?', textTr: 'Doğum tarihiniz nedir?' },
    {
      companyId,
      sortOrder: 4,
      textEn: 'What is the purpose of opening this account?',
      textTr: 'Bu hesabı açma amacınız nedir?',
    },
    {
      companyId,
      sortOrder: 5,
      textEn: 'Please tilt your ID card to show the hologram.',
      textTr: 'Lütfen hologramı göstermek için kimliğinizi eğin.',
    },
  ]);
  return {
    checklistQuestionIds: questions.map((q) => q.id),
    questionnaire: questionnaire.map((q) => ({
      id: q.id,
      answerType: q.answerType,
      optionIds: q.answers.map((a) => a.id),
    })),
  };
}

/** The events of the seeded delivery history: the catalogue as it was before the review events. */
const HISTORY_EVENTS = WEBHOOK_EVENTS.slice(0, WEBHOOK_EVENTS.indexOf('user.created') + 1);

async function seedCompanyAdmin(db: Db, secrets: SecretBox, companyId: number, endpointCount: number) {
  await db
    .insert(webhookSettings)
    .values({ companyId, url: null, token: secrets.seal(randomBytes(24).toString('base64url')) });
  await db.insert(webhookEventToggles).values(
    WEBHOOK_EVENTS.map((event, i) => ({
      companyId,
      event,
      enabled: i !== 1,
      lastTriggeredAt: i < 4 ? new Date(DEMO_NOW - (i + 1) * HOUR_MS) : null,
    })),
  );
  const endpoints = await db
    .insert(webhookEndpoints)
    .values(
      Array.from({ length: endpointCount }, (_, i) => ({
        companyId,
        url: `https://hooks.example.com/idv/${companyId}/${i + 1}`,
        enabledEvents: i === 0 ? [...WEBHOOK_EVENTS] : ['profile.status_changed', 'document.approved'],
        secret: secrets.seal(`whsec_${randomBytes(32).toString('base64')}`),
      })),
    )
    .returning();
  // Past deliveries with their messages, so the console can show, retry and replay them.
  const history = endpoints.flatMap((endpoint, e) =>
    Array.from({ length: 25 }, (_, n) => {
      const event = HISTORY_EVENTS[(n + e) % HISTORY_EVENTS.length] as string;
      const at = new Date(DEMO_NOW - (25 - n) * 1_800_000);
      const msgId = `msg_seed_${companyId}_${e + 1}_${n + 1}`;
      const body = JSON.stringify({ type: event, timestamp: at.toISOString(), data: { profile_id: n + 1 } });
      return { endpoint, event, at, msgId, body, n, success: n % 7 !== 3 };
    }),
  );
  if (history.length > 0) {
    const messages = await db
      .insert(webhookMessages)
      .values(
        history.map((h) => ({
          msgId: h.msgId,
          companyId,
          eventType: h.event,
          body: h.body,
          fannedOut: true,
          createdAt: h.at,
        })),
      )
      .returning({ id: webhookMessages.id });
    const deliveries = await db
      .insert(webhookDeliveries)
      .values(
        history.map((h, i) => ({
          messageId: messages[i]?.id as number,
          endpointId: h.endpoint.id,
          companyId,
          status: h.success ? 'succeeded' : 'failed',
          attempts: h.success ? 1 : 2,
          nextAttemptAt: h.at,
          createdAt: h.at,
        })),
      )
      .returning({ id: webhookDeliveries.id });
    await db.insert(webhookLogs).values(
      history.map((h, i) => ({
        companyId,
        endpointId: h.endpoint.id,
        deliveryId: deliveries[i]?.id ?? null,
        msgId: h.msgId,
        event: h.event,
        url: h.endpoint.url,
        requestHeaders: {
          'content-type': 'application/json',
          'webhook-id': h.msgId,
          'webhook-timestamp': String(Math.floor(h.at.getTime() / 1000)),
        },
        responseStatus: h.success ? 200 : 502,
        responseBody: h.success ? '{"ok":true}' : 'Bad Gateway',
        success: h.success,
        attempt: h.success ? 1 : 2,
        durationMs: 40 + ((h.n * 37) % 300),
        createdAt: h.at,
      })),
    );
  }
  // No IP allow-list entries: the list is enforced, and an empty list lets every address in, so the
  // demo stays reachable from wherever it runs. Admins add entries on /company-settings.
  // One paid period every 30 days, the newest 10 days before DEMO_NOW (the company's current period).
  const paidAt = (i: number) => new Date(DEMO_NOW - (10 + i * 30) * DAY_MS + 60_000);
  await db.insert(payments).values(
    Array.from({ length: endpointCount > 1 ? 4 : 1 }, (_, i) => ({
      companyId,
      packageId: endpointCount > 1 ? 2 : 1,
      amountCents: endpointCount > 1 ? 80_000 : 25_000,
      currency: 'EUR',
      status: i === 3 ? 'declined' : 'paid',
      sessionId: `cs_demo_${companyId}_${i + 1}`,
      createdAt: new Date(paidAt(i).getTime() - 60_000),
      paidAt: i === 3 ? null : paidAt(i),
      receiptNumber: i === 3 ? null : `R-DEMO-${companyId}-${i + 1}`,
      failureCode: i === 3 ? 'card_declined' : null,
    })),
  );
  await db
    .update(companies)
    .set({
      planPeriodStart: paidAt(0),
      planPeriodEnd: new Date(paidAt(0).getTime() + 30 * DAY_MS),
      planVerifications: endpointCount > 1 ? 2000 : 500,
    })
    .where(eq(companies.id, companyId));
}

export interface SeedOptions {
  storage: Storage;
  secrets: SecretBox;
  argon2: PasswordCost;
  /** Acme Bank's profile count (default 240). */
  profiles?: number;
  log?: (line: string) => void;
}

/** The whole demo data set (docs/server.md lists it). The database must be empty. */
export async function seedDemo(db: Db, options: SeedOptions): Promise<void> {
  const log = options.log ?? (() => {});
  const rng = createRng(2026);
  await ensureSampleImages(options.storage);
  const sampleSizes = new Map<string, number>();
  for (const documentClass of DOCUMENT_CLASSES)
    for (let v = 0; v < SAMPLE_VARIANTS; v++) {
      const key = sampleKey(documentClass, v);
      sampleSizes.set(key, (await options.storage.size(key)) ?? 0);
    }

  const { documentTypeIds } = await seedReference(db);
  const { acme, globex, groupRows } = await seedCompanies(db);
  const userRows = await seedUsers(
    db,
    options.storage,
    options.secrets,
    options.argon2,
    { 'Acme Bank': acme.id, 'Globex Fintech': globex.id },
    groupRows,
  );
  const staffOf = (companyId: number) =>
    userRows
      .filter(
        (u, i) =>
          u.companyId === companyId && !DEMO_USERS[i]?.flags?.isApiUser && !DEMO_USERS[i]?.flags?.deskOnly,
      )
      .map((u) => u.id);

  const acmeConfig = await seedCompanyConfig(db, acme.id, true);
  const globexConfig = await seedCompanyConfig(db, globex.id, false);
  await seedCompanyAdmin(db, options.secrets, acme.id, 2);
  await seedCompanyAdmin(db, options.secrets, globex.id, 1);

  const common = { rng, now: DEMO_NOW, spanDays: 180, documentTypeIds, sampleSizes };
  const acmeCount = options.profiles ?? DEMO_PROFILES_ACME;
  const richCount = Math.min(acmeCount, RICH_PROFILES_MAX);
  const started = Date.now();
  const acmeProfileIds = await seedProfiles(
    db,
    {
      ...common,
      ...acmeConfig,
      companyId: acme.id,
      staffIds: staffOf(acme.id),
      amlProvider: acme.amlProvider,
      listedNames: DEMO_LISTED_NAMES,
    },
    0,
    richCount,
  );
  await seedProfiles(
    db,
    {
      ...common,
      ...globexConfig,
      companyId: globex.id,
      staffIds: staffOf(globex.id),
      amlProvider: globex.amlProvider,
    },
    0,
    DEMO_PROFILES_GLOBEX,
  );
  // Acme has the transactions service; Globex does not.
  await seedTransactions(db, acmeProfileIds, DEMO_NOW);
  const reviewerIds = DEMO_USERS.flatMap((u, i) =>
    u.company === 'Acme Bank' && (u.role === 'Admin' || u.groups?.includes('Reviewers'))
      ? [userRows[i]?.id as number]
      : [],
  );
  const cases = await seedReview(db, {
    companyIds: [acme.id, globex.id],
    acme: { id: acme.id, reviewerIds },
  });
  // After the review cases and transactions, which stay those of the rich profiles.
  if (acmeCount > richCount) {
    log(`bulk: ${acmeCount - richCount} more Acme profiles in set-based SQL`);
    await seedBulkProfiles(db, {
      companyId: acme.id,
      firstIndex: richCount,
      count: acmeCount - richCount,
      now: DEMO_NOW,
      spanDays: common.spanDays,
      staffIds: staffOf(acme.id),
      amlProvider: acme.amlProvider,
      documentTypeIds,
      sampleSizes,
      log,
    });
  }
  // Fresh statistics and visibility map: the planner then uses index-only scans for counts.
  await db.execute(sql`VACUUM ANALYZE`);
  log(
    `seeded ${acmeCount + DEMO_PROFILES_GLOBEX} profiles and ${cases} review cases in ${Date.now() - started} ms`,
  );
}
