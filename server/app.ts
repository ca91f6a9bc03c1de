import fastifyCors from '@fastify/cors';
import fastifyMultipart from '@fastify/multipart';
import fastifySwagger from '@fastify/swagger';
import Fastify, { type FastifyInstance } from 'fastify';
import { type FastifyPluginAsyncZod, validatorCompiler } from 'fastify-type-provider-zod';
import { createLimiters } from './auth/attemptLimiter';
import { createSecretBox } from './auth/secrets';
import { createTokenService } from './auth/tokens';
import type { ServerConfig } from './config';
import { type AppContext, regionsOf } from './context';
import { type Database, openDatabase } from './db/client';
import { isDatabaseEmpty, seedDemo } from './db/seed/demo';
import { installAuditContext } from './domain/audit';
import { createCountCache } from './domain/countCache';
import { sweepStorage } from './domain/evidence';
import { createEvidenceSigner } from './domain/evidenceKey';
import { startRetentionJob } from './domain/evidenceRetention';
import { createIpAllowListCache, proxyTrust } from './domain/ipAllowList';
import { createPrincipalReads } from './domain/principal';
import { createReportReads } from './domain/reportReads';
import { createSessionService } from './domain/sessions';
import { installAccessControl, PUBLIC } from './http/access';
import { corsOriginCheck } from './http/cors';
import { frameworkErrors, installErrorHandling } from './http/errors';
import { loggerOptions } from './http/logging';
import { openapiTransform } from './http/openapi';
import { countedStorage, createOperations, installOperations, type Operations } from './http/operations';
import { installPaymentGate } from './http/paymentGate';
import { installSecurityHeaders } from './http/securityHeaders';
import { frozenAnswersSerializerCompiler } from './http/serializer';
import { createHumanFaceMatcher, type FaceMatcher, unavailableFaceMatcher } from './integrations/faceMatch';
import { createDbOutbox } from './integrations/mail';
import { createMailWorker, smtpTransport } from './integrations/mailWorker';
import { createLocalPaymentProvider } from './integrations/payment/localProvider';
import type { PaymentProvider } from './integrations/payment/provider';
import { createStripePaymentProvider } from './integrations/payment/stripeProvider';
import { createDbSmsOutbox, type SmsSender } from './integrations/sms';
import { createHttpSummariser } from './integrations/summariser';
import { createTwilioSmsSender } from './integrations/twilioSms';
import { createWebhookWorker } from './integrations/webhooks/worker';
import { createCallDesk } from './realtime/callDesk';
import { type Cluster, openCluster } from './realtime/cluster';
import { createHub, type RealtimeHub } from './realtime/hub';
import { createProfileWatch } from './realtime/profileWatch';
import { createReviewFeed } from './realtime/reviewFeed';
import { sessionRoom } from './realtime/rooms';
import { createUserPush } from './realtime/userPush';
import { accountCodeRoutes } from './routes/accountCodes';
import { amlRoutes } from './routes/aml';
import { auditRoutes } from './routes/audit';
import { bitoolRoutes } from './routes/bitool';
import { callGuideRoutes } from './routes/callGuide';
import { callQualityRoutes } from './routes/callQuality';
import { callReportRoutes } from './routes/callReport';
import { callRoutingRoutes } from './routes/callRouting';
import { companyRoutes } from './routes/companies';
import { devRoutes } from './routes/dev';
import { documentRoutes } from './routes/documents';
import { evidenceRoutes } from './routes/evidence';
import { groupRoutes } from './routes/groups';
import { identProcedureRoutes } from './routes/identProcedure';
import { ipWhitelistRoutes } from './routes/ipWhitelist';
import { loginRoutes } from './routes/login';
import { mailRoutes } from './routes/mail';
import { noteRoutes } from './routes/notes';
import { notificationRoutes } from './routes/notifications';
import { passkeyLoginRoutes, passkeyRoutes } from './routes/passkeys';
import { paymentRoutes } from './routes/payments';
import { profileRoutes } from './routes/profiles';
import { profileWriteRoutes } from './routes/profileWrites';
import { questionnaireRoutes } from './routes/questionnaires';
import { referenceRoutes } from './routes/reference';
import { reviewRoutes } from './routes/review';
import { reviewMetricsRoutes } from './routes/reviewMetrics';
import { sessionRoutes } from './routes/sessions';
import { signupRoutes } from './routes/signup';
import { storageRoutes } from './routes/storage';
import { registerStudio } from './routes/studio';
import { supportRoutes } from './routes/support';
import { transactionRoutes } from './routes/transactions';
import { userRoutes } from './routes/users';
import { videoCallRoutes } from './routes/videocalls';
import { webhookRoutes } from './routes/webhooks';
import { createS3Storage } from './storage/s3';
import { createLocalStorage } from './storage/storage';
import { createUploadGate } from './storage/uploadGate';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
    hub: RealtimeHub;
    ops: Operations;
  }
}

const API_V2 = '/api/v2';

/** How often the HTTP server looks for requests past their header or request time-out (Node's default: 30 s). */
const TIMEOUT_CHECK_MS = 1_000;

const companyServerRoutes = (ctx: AppContext): FastifyPluginAsyncZod[] => [
  referenceRoutes(ctx),
  accountCodeRoutes(ctx),
  userRoutes(ctx),
  companyRoutes(ctx),
  groupRoutes(ctx),
  auditRoutes(ctx),
  profileRoutes(ctx),
  profileWriteRoutes(ctx, {
    summariser: ctx.config.summariser ? createHttpSummariser(ctx.config.summariser) : undefined,
  }),
  supportRoutes(ctx),
  transactionRoutes(ctx),
  documentRoutes(ctx),
  amlRoutes(ctx),
  noteRoutes(ctx),
  videoCallRoutes(ctx),
  callReportRoutes(ctx),
  bitoolRoutes(ctx),
  questionnaireRoutes(ctx),
  webhookRoutes(ctx),
  ipWhitelistRoutes(ctx),
  sessionRoutes(ctx),
  paymentRoutes(ctx),
  signupRoutes(ctx),
  passkeyRoutes(ctx),
  identProcedureRoutes(ctx),
  callGuideRoutes(ctx),
  evidenceRoutes(ctx),
  callQualityRoutes(ctx),
  callRoutingRoutes(ctx),
  reviewRoutes(ctx),
  notificationRoutes(ctx),
  reviewMetricsRoutes(ctx),
  mailRoutes(ctx),
];

/** The `sms_outbox` table, and Twilio after it when configured (its failures logged, never the code). */
function smsSender(config: ServerConfig, db: Database['db'], onError: (error: unknown) => void): SmsSender {
  const outbox = createDbSmsOutbox(db, {
    print: config.mailConsole ? (line) => console.log(line) : undefined,
    devCodesMs: config.devEndpoints ? config.oneTimeCodes.ttlMs : undefined,
  });
  return config.twilio ? createTwilioSmsSender(outbox, { ...config.twilio, onError }) : outbox;
}

/**
 * Builds the whole server without listening: database (migrated, seeded when empty), API, OpenAPI,
 * storage, studio and the socket.io hub. Pass `database` to reuse an open one (it is then not closed).
 */
export async function buildApp(
  config: ServerConfig,
  options: {
    database?: Database;
    faceMatcher?: FaceMatcher;
    /** Where the log goes instead of stdout (tests that read the log). */
    logStream?: { write(line: string): void };
    paymentProvider?: PaymentProvider;
  } = {},
): Promise<FastifyInstance> {
  // PostgreSQL may report a failed connection before the app (and its log) exists.
  let reportConnectionError: ((error: unknown) => void) | undefined;
  const database =
    options.database ??
    (await openDatabase({ ...config, onConnectionError: (error) => reportConnectionError?.(error) }));
  const secrets = createSecretBox(config.jwtSecret);
  const ops = createOperations();
  const storage = countedStorage(
    config.s3
      ? createS3Storage(config.s3, config.jwtSecret, config.publicUrl)
      : createLocalStorage(`${config.dataDir}/storage`, config.jwtSecret, config.publicUrl),
    ops,
  );
  try {
    if (config.seedOnEmpty && (await isDatabaseEmpty(database.db))) {
      await seedDemo(database.db, { storage, secrets, argon2: config.argon2 });
    }
  } finally {
    // Several processes starting on one PostgreSQL: the first migrates and seeds, the others wait (client.ts).
    await database.startupDone?.();
  }
  const cluster: Cluster | undefined = config.redisUrl ? await openCluster(config.redisUrl) : undefined;
  // The mail queue (record 0160): with SMTP_URL a worker hands it to the relay; without, it is the outbox only.
  const mailWorker = config.smtpUrl
    ? createMailWorker({
        db: database.db,
        secrets,
        transport: smtpTransport(config.smtpUrl, config.mailFrom),
        config: config.mail,
        onError: (error) => app.log.error({ err: error }, 'mail delivery failed'),
      })
    : null;
  const mail = createDbOutbox(database.db, {
    secrets,
    relay: mailWorker !== null,
    product: config.mail.product,
    print: config.mailConsole ? (line) => console.log(line) : undefined,
    onQueued: () => mailWorker?.kick(),
    codeTtlMs: config.oneTimeCodes.ttlMs,
    onError: (error) => app.log.error({ err: error }, 'mail failed'),
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
  // Kept until the database says the figures changed (records 0173 and 0180).
  const reports = createReportReads();
  if (database.rollupChanges) await reports.follow(database.rollupChanges);
  // Likewise the access checks' principals (records 0179 and 0180).
  const principals = createPrincipalReads();
  if (database.principalChanges) await principals.follow(database.principalChanges);
  const ctx: AppContext = {
    config,
    db: database.db,
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
      onError: (error) => app.log.error({ err: error }, 'session last-seen write failed'),
    }),
    mail,
    mailWorker,
    sms: smsSender(config, database.db, (error) => app.log.error({ err: error }, 'sms failed')),
    faceMatcher:
      options.faceMatcher ??
      (config.faceMatch.engine === 'off'
        ? unavailableFaceMatcher()
        : createHumanFaceMatcher({
            minSimilarity: config.faceMatch.minSimilarity,
            onError: (error) => app.log.error({ err: error }, 'face model failed to load'),
          })),
    regions: regionsOf(config),
    reports,
    principals,
    profileCounts: createCountCache(config.listCountCacheMs),
    calls: createCallDesk({
      db: database.db,
      customerGraceMs: config.calls.customerGraceMs,
      agentGraceMs: config.calls.agentGraceMs,
      unattachedCallMs: config.calls.unattachedCallMs,
      onError: (error) => app.log.error({ err: error }, 'call desk failed'),
      shared: cluster?.shared,
    }),
    webhooks: createWebhookWorker({
      db: database.db,
      secrets,
      config: config.webhooks,
      mail,
      studioUrl: config.publicUrl,
      onError: (error) => app.log.error({ err: error }, 'webhook delivery failed'),
    }),
    profileWatch: createProfileWatch({
      db: database.db,
      onError: (error) => app.log.error({ err: error }, 'profile watch failed'),
    }),
    reviewFeed: createReviewFeed({
      db: database.db,
      onError: (error) => app.log.error({ err: error }, 'review feed failed'),
    }),
    userPush: createUserPush(),
    ipAllowList: createIpAllowListCache(database.db, config.ipAllowListCacheMs),
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
    evidence: createEvidenceSigner({
      db: database.db,
      secrets,
      configuredPem: config.evidence.signingKeyPem,
    }),
  };
  // Calls and agents an earlier run left open wait for their sockets to come back (their grace periods).
  await ctx.calls.restore();

  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // X-Forwarded-For only from the proxies TRUST_PROXY names (request.ip feeds the IP allow-list).
    trustProxy: ctx.proxyTrust,
    frameworkErrors,
    // Slow clients (docs/server.md "Timeouts"): a connection with nothing coming or going for `idleMs` is
    // closed (a stalled body), the headers must arrive within `headersMs` and the whole request (a large
    // upload) within `requestMs`.
    connectionTimeout: config.timeouts.idleMs,
    requestTimeout: config.timeouts.requestMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
  });
  reportConnectionError = (error) => app.log.warn({ err: error }, 'database connection failed');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(frozenAnswersSerializerCompiler);
  app.decorate('ctx', ctx);
  // What a crash in the middle of an upload left in storage goes (issue 25). On S3, shared by several
  // processes, only what is an hour old: another process may be uploading right now.
  const swept = await sweepStorage(
    ctx.db,
    storage,
    new Date(Date.now() - (config.s3 ? 3_600_000 : 0)),
    (error) => app.log.warn({ err: error }, 'storage sweep failed'),
  );
  if (swept.partial + swept.unreferenced > 0)
    app.log.info(swept, 'storage: removed what interrupted uploads left behind');
  await installSecurityHeaders(app, config);
  installErrorHandling(app);
  installAccessControl(app, ctx, ['/api/']);
  installAuditContext(app);
  installPaymentGate(app, ctx);
  installOperations(app, ctx, ops, { redis: cluster?.redis });
  app.decorate('ops', ops);

  const isAllowedOrigin = corsOriginCheck(config);
  await app.register(fastifyCors, {
    origin: (origin, done) => done(null, isAllowedOrigin(origin)),
    allowedHeaders: ['Authorization', 'Content-Type', 'Accept', 'Accept-Language', 'X-Password', 'If-Match'],
    exposedHeaders: ['ETag'],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    maxAge: 600,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: 300 * 1024 * 1024, files: 10 } });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'IDV Studio reference server', version: '2.0.0' },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: openapiTransform,
  });

  await app.register(loginRoutes(ctx), { prefix: '/api/v1' });
  await app.register(passkeyLoginRoutes(ctx), { prefix: '/api/v1' });
  if (config.devEndpoints) await app.register(devRoutes(ctx), { prefix: '/api/dev' });
  for (const routes of companyServerRoutes(ctx)) await app.register(routes, { prefix: API_V2 });
  app.get(`${API_V2}/openapi.json`, { config: { access: PUBLIC }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
  await app.register(storageRoutes(ctx));
  await registerStudio(app, ctx);

  const hub = createHub(app.server, {
    db: ctx.db,
    tokens: ctx.tokens,
    calls: ctx.calls,
    ipAllowList: ctx.ipAllowList,
    proxyTrust: ctx.proxyTrust,
    corsOrigins: isAllowedOrigin,
    sessions: { isActive: (claims) => ctx.sessions.check(ctx.db, claims) },
    onError: (error) => app.log.error({ err: error }, 'socket handler failed'),
    statsEveryMs: config.calls.statsEveryMs,
    cluster: cluster && { adapter: cluster.adapter, sweepMs: cluster.sweepMs },
    onConnection: (change) => ops.socketConnections.inc(change),
  });
  app.decorate('hub', hub);
  ctx.sessions.onEnded((ids) => hub.io.in(ids.map(sessionRoom)).disconnectSockets(true));
  ctx.profileWatch.bind(hub.io);
  ctx.reviewFeed.bind(hub.io);
  ctx.userPush.bind(hub.io);
  app.addHook('preClose', async () => hub.close());
  // Webhooks: a write may have enqueued events (committed by now): look for them at once.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      ctx.webhooks.kick();
      ctx.mailWorker?.kick();
    }
  });
  app.addHook('preClose', async () => ctx.webhooks.stop());
  if (config.webhooks.worker) ctx.webhooks.start();
  app.addHook('preClose', async () => ctx.mailWorker?.stop());
  if (config.mail.worker) ctx.mailWorker?.start();
  // Evidence past its company's retention is deleted (issue 29); safe with several processes running it.
  const retention = startRetentionJob(ctx.db, ctx.storage, config.evidence.retentionSweepMs, (error) =>
    app.log.error({ err: error }, 'evidence retention failed'),
  );
  app.addHook('onClose', async () => retention.stop());
  app.addHook('onClose', async () => {
    // A database the caller gave may be closed already; then there is nothing to stop listening to.
    await reports.stop().catch(() => undefined);
    await principals.stop().catch(() => undefined);
    await cluster?.close();
    if (!options.database) await database.close();
  });

  await app.ready();
  return app;
}
