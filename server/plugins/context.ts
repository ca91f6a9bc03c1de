import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createLimiters } from '../auth/attemptLimiter';
import { createSecretBox, type SecretBox } from '../auth/secrets';
import { createTokenService } from '../auth/tokens';
import type { ServerConfig } from '../config';
import { type AppContext, regionsOf } from '../context';
import { type Database, openDatabase } from '../db/client';
import { isDatabaseEmpty, seedDemo } from '../db/seed/demo';
import { createCallIce } from '../domain/callIce';
import { createCountCache } from '../domain/countCache';
import { createEvidenceSigner } from '../domain/evidenceKey';
import { createIpAllowListCache, proxyTrust } from '../domain/ipAllowList';
import { createPrincipalReads } from '../domain/principal';
import { createReportReads } from '../domain/reportReads';
import { createSessionService } from '../domain/sessions';
import { countedStorage, createOperations, type Operations } from '../http/operations';
import { readerBoundStorage } from '../http/readerUrls';
import { createHumanFaceMatcher, type FaceMatcher, unavailableFaceMatcher } from '../integrations/faceMatch';
import { createDbOutbox } from '../integrations/mail';
import { createMailWorker, smtpTransport } from '../integrations/mailWorker';
import { createLocalPaymentProvider } from '../integrations/payment/localProvider';
import type { PaymentProvider } from '../integrations/payment/provider';
import { createStripePaymentProvider } from '../integrations/payment/stripeProvider';
import { createDbSmsOutbox, type SmsSender } from '../integrations/sms';
import { createTwilioSmsSender } from '../integrations/twilioSms';
import { createWebhookWorker } from '../integrations/webhooks/worker';
import { createCallDesk } from '../realtime/callDesk';
import { createCallTraces } from '../realtime/callDesk/traces';
import { type Cluster, openCluster } from '../realtime/cluster';
import { createProfileWatch } from '../realtime/profileWatch';
import { createReviewFeed } from '../realtime/reviewFeed';
import { createUserPush } from '../realtime/userPush';
import { createStorage } from '../storage/encryptedStorage';
import type { Storage } from '../storage/storage';
import { createUploadGate } from '../storage/uploadGate';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    ops: Operations;
    /** Distributed mode's Redis connections (REDIS_URL); null in a single process. */
    cluster: Cluster | null;
  }
}

export interface ContextOptions {
  config: ServerConfig;
  /** An open database to use; it is then the caller's to close. */
  database?: Database;
  faceMatcher?: FaceMatcher;
  paymentProvider?: PaymentProvider;
}

/**
 * Everything the routes and the socket hub share (`app.ctx`), and the connections behind it: the database
 * (migrated, seeded when empty), Redis in distributed mode, and the caches that follow the database's changes.
 * Closed last (fastify runs `onClose` hooks in reverse order), after every worker that uses them has stopped.
 */
export const contextPlugin = fp<ContextOptions>(async (app, options) => {
  const { config } = options;
  const database =
    options.database ??
    (await openDatabase({
      ...config,
      onConnectionError: (error) => app.log.warn({ err: error }, 'database connection failed'),
    }));
  const secrets = createSecretBox(config.jwtSecret);
  const ops = createOperations({ dumpDatabase: database.dump });
  const storage = countedStorage(createStorage(config, database.db), ops);
  // Seeded before anything follows the database's changes or restores calls, so both see the finished seed.
  await seedWhenEmpty(config, database, storage, secrets);
  const cluster = config.redisUrl ? await openCluster(config.redisUrl) : null;
  // Kept until the database says the figures or the principals changed.
  const reports = createReportReads();
  if (database.rollupChanges) await reports.follow(database.rollupChanges);
  const principals = createPrincipalReads();
  if (database.principalChanges) await principals.follow(database.principalChanges);
  app.addHook('onClose', async () => {
    // A database the caller gave may be closed already; then there is nothing to stop listening to.
    await reports.stop().catch(() => undefined);
    await principals.stop().catch(() => undefined);
    await cluster?.close();
    if (!options.database) await database.close();
  });

  // Addresses made in a staff user's request name their reader, so /storage can log who read a person's files.
  const readerUrls = readerBoundStorage(storage, config.jwtSecret);
  const ctx = createContext(app, options, {
    database,
    secrets,
    storage: readerUrls,
    cluster,
    reports,
    principals,
    ops,
  });
  app.decorate('ctx', ctx);
  app.decorate('ops', ops);
  app.decorate('cluster', cluster);
  // Calls and agents an earlier run left open wait for their sockets to come back (their grace periods).
  await ctx.calls.restore();
});

/** The demo data on a database with no company yet; with several processes on one PostgreSQL, only the first. */
async function seedWhenEmpty(config: ServerConfig, database: Database, storage: Storage, secrets: SecretBox) {
  try {
    if (config.seedOnEmpty && (await isDatabaseEmpty(database.db))) {
      await seedDemo(database.db, { storage, secrets, argon2: config.argon2 });
    }
  } finally {
    // The first process migrates and seeds while the others wait for this (server/db/client.ts).
    await database.startupDone?.();
  }
}

/** The services of `app.ctx`; none starts work here (the workers and the hub are started by their plugins). */
function createContext(
  app: FastifyInstance,
  options: ContextOptions,
  opened: {
    database: Database;
    secrets: SecretBox;
    storage: Storage;
    cluster: Cluster | null;
    reports: AppContext['reports'];
    principals: AppContext['principals'];
    ops: Operations;
  },
): AppContext {
  const { config } = options;
  const { database, secrets, storage, cluster, ops } = opened;
  const db = database.db;
  const logError = (message: string) => (error: unknown) => app.log.error({ err: error }, message);
  // With SMTP_URL a worker hands the mail queue to the relay; without, the outbox is all there is.
  const mailWorker = config.smtpUrl
    ? createMailWorker({
        db,
        secrets,
        transport: smtpTransport(config.smtpUrl, config.mailFrom),
        config: config.mail,
        onError: logError('mail delivery failed'),
      })
    : null;
  const mail = createDbOutbox(db, {
    secrets,
    relay: mailWorker !== null,
    product: config.mail.product,
    print: config.mailConsole ? (line) => console.log(line) : undefined,
    onQueued: () => mailWorker?.kick(),
    codeTtlMs: config.oneTimeCodes.ttlMs,
    onError: logError('mail failed'),
    // The dev outbox listing shows codes from memory while they live; the database never holds them in the clear.
    devCodesMs: config.devEndpoints ? config.oneTimeCodes.ttlMs : undefined,
  });
  const tokens = createTokenService({
    secret: config.jwtSecret,
    accessTtlSeconds: config.accessTokenTtlSeconds,
    socketTtlSeconds: config.socketTokenTtlSeconds,
    mfaSetupTtlSeconds: config.mfaSetupTokenTtlSeconds,
  });
  const limiters = createLimiters(cluster?.redis);
  return {
    config,
    db,
    secrets,
    storage,
    uploads: createUploadGate(
      { perMinute: config.limits.uploadsPerMinute, atOnce: config.limits.uploadsAtOnce },
      limiters,
    ),
    tokens,
    sessions: createSessionService({
      tokens,
      accessTtlSeconds: config.accessTokenTtlSeconds,
      cacheMs: config.sessionCacheMs,
      onError: logError('session last-seen write failed'),
    }),
    mail,
    mailWorker,
    sms: smsSender(config, db, logError('sms failed')),
    faceMatcher:
      options.faceMatcher ??
      (config.faceMatch.engine === 'off'
        ? unavailableFaceMatcher()
        : createHumanFaceMatcher({
            minSimilarity: config.faceMatch.minSimilarity,
            onError: logError('face model failed to load'),
          })),
    regions: regionsOf(config),
    reports: opened.reports,
    principals: opened.principals,
    profileCounts: createCountCache(config.listCountCacheMs),
    calls: createCallDesk({
      db,
      customerGraceMs: config.calls.customerGraceMs,
      talkingCustomerGraceMs: config.calls.talkingCustomerGraceMs,
      agentGraceMs: config.calls.agentGraceMs,
      unattachedCallMs: config.calls.unattachedCallMs,
      onError: logError('call desk failed'),
      shared: cluster?.shared,
      // Traced and distributed: an answer on another process than the ring continues the call's trace.
      traces: createCallTraces(config.otlpEndpoint ? cluster?.redis : undefined),
      onCallEnded: (reason) => ops.callsEnded.inc({ reason }),
    }),
    webhooks: createWebhookWorker({
      db,
      secrets,
      config: config.webhooks,
      mail,
      studioUrl: config.publicUrl,
      onError: logError('webhook delivery failed'),
      queued: database.webhooksQueued,
    }),
    profileWatch: createProfileWatch({ db, onError: logError('profile watch failed') }),
    reviewFeed: createReviewFeed({ db, onError: logError('review feed failed') }),
    userPush: createUserPush(),
    ipAllowList: createIpAllowListCache(db, config.ipAllowListCacheMs),
    callIce: createCallIce(db, config.ice),
    proxyTrust: proxyTrust(config.trustProxy),
    payments:
      options.paymentProvider ??
      (config.payment.stripe
        ? createStripePaymentProvider({
            ...config.payment.stripe,
            toleranceSeconds: config.payment.toleranceSeconds,
          })
        : createLocalPaymentProvider(config.payment)),
    limiters,
    evidence: createEvidenceSigner({ db, secrets, configuredPem: config.evidence.signingKeyPem }),
  };
}

/** The `sms_outbox` table, and Twilio after it when configured (its failures logged, never the code). */
function smsSender(config: ServerConfig, db: Database['db'], onError: (error: unknown) => void): SmsSender {
  const outbox = createDbSmsOutbox(db, {
    print: config.mailConsole ? (line) => console.log(line) : undefined,
    devCodesMs: config.devEndpoints ? config.oneTimeCodes.ttlMs : undefined,
  });
  return config.twilio ? createTwilioSmsSender(outbox, { ...config.twilio, onError }) : outbox;
}
