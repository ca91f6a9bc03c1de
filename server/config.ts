import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { MAX_RECORDING_BYTES } from '#contract/constants';
import {
  DEFAULT_RETRY_SCHEDULE,
  type Environment,
  type LOG_LEVELS,
  parseEnvironment,
  parseRetrySchedule,
} from './environment';
import type { StripeOptions } from './integrations/payment/stripeProvider';
import type { TwilioOptions } from './integrations/twilioSms';
import { keptSecret, newSecret } from './secretFile';
import type { KekConfig } from './storage/keyProvider';

export { DEFAULT_MAIL_RETRY_SCHEDULE, DEFAULT_RETRY_SCHEDULE, readEvidenceKey } from './environment';

/*
 * The configuration the code reads. Every environment variable, with its type, default and meaning, is in
 * server/environment.ts (and docs/operators/configuration.md, generated from it); this file derives the
 * shape below from the parsed environment and checks the rules that join several variables.
 */

export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * One fixed window of a rate-limited route: at most `points` requests per `seconds`, counted per client address,
 * per signed-in user, per company, or once for everybody (`all`).
 */
export interface RouteLimit {
  per: 'address' | 'user' | 'company' | 'all';
  points: number;
  seconds: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite in `${dataDir}/pg`. Set: a real PostgreSQL. */
  databaseUrl: string | undefined;
  /** `memory` keeps PGlite in memory (tests, benchmarks). */
  pgliteDir: string | 'memory';
  publicUrl: string;
  secondRegionUrl: string;
  jwtSecret: string;
  studioDist: string;
  logLevel: LogLevel;
  /** A request slower than this is logged as a warning (milliseconds). */
  slowRequestMs: number;
  /** argon2 cost; tests lower it. */
  argon2: { memoryCost: number; timeCost: number };
  /**
   * Sign-in limits (server/auth/attemptLimiter.ts): failures in a row of one account from one address before each
   * further try waits a growing delay, and failures from one address within the window.
   */
  loginRateLimit: { perAccount: number; perAddress: number; timeWindowMs: number };
  accessTokenTtlSeconds: number;
  socketTokenTtlSeconds: number;
  /**
   * How long a session check is reused in this process (ending a session here forgets it at once). A user's
   * role, groups and state are read on every request, so their changes apply on the next one everywhere.
   */
  sessionCacheMs: number;
  /** How long an exact profile-list count is reused (write paths invalidate it sooner). */
  listCountCacheMs: number;
  /**
   * Keyset lists count exactly up to this many rows; above, they answer the planner's estimate and say so
   * (docs/decisions/0164-keyset-lists.md). Tests set it low to reach the estimate with little data.
   */
  listCountCap: number;
  /** Seed the demo data when the database has no company yet. */
  seedOnEmpty: boolean;
  /** Lifetime of the restricted token of a forced two-factor setup. */
  mfaSetupTokenTtlSeconds: number;
  /** E-mailed one-time codes: lifetime, wrong tries allowed, sends per e-mail per minute. */
  oneTimeCodes: { ttlMs: number; maxAttempts: number; sendsPerEmail: number; timeWindowMs: number };
  /** `/api/dev/*` (the outbox listing, socket drops), for loopback callers only (server/routes/dev.ts). */
  devEndpoints: boolean;
  /**
   * Origins whose browsers may call the API and open sockets (CORS, socket.io): PUBLIC_URL's, SECOND_REGION_URL's
   * and STUDIO_ORIGINS'; `allowLoopbackOrigins` adds any loopback origin (NODE_ENV=development, `npm run dev`).
   */
  studioOrigins: string[];
  allowLoopbackOrigins: boolean;
  /**
   * Slow clients (docs/server.md "Timeouts"): a connection with no bytes in or out for `idleMs` is closed (a
   * stalled body), the headers must arrive within `headersMs` and the whole request within `requestMs`.
   */
  timeouts: { requestMs: number; headersMs: number; idleMs: number };
  /** Print every outgoing e-mail on one console line (not in production). */
  mailConsole: boolean;
  /** Send e-mail by SMTP as well; unset: outbox only. */
  smtpUrl: string | undefined;
  /** Send text messages through Twilio as well; unset: the `sms_outbox` table only. */
  twilio: TwilioOptions | undefined;
  /** Sender address of e-mails. */
  mailFrom: string;
  /** The mail queue. */
  mail: MailConfig;
  /** Face comparison at login: `human` (local face-embedding model) or `off` (photo login refused). */
  faceMatch: { engine: 'human' | 'off'; minSimilarity: number };
  /** The machine checks beside the agent in a guided call (face match, MRZ) and their face threshold. */
  machineChecks: { enabled: boolean; faceThreshold: number };
  /** A language-model endpoint (OpenAI-compatible chat completions) for profile summaries; unset: local rules. */
  summariser: { url: string; model: string; apiKey: string | undefined } | undefined;
  /** Live calls (docs/server.md): join-link lifetime and how long a dropped socket may take to come back. */
  calls: {
    joinLinkTtlSeconds: number;
    /** A waiting customer whose socket is gone this long has left: the call is MISSED. */
    customerGraceMs: number;
    /**
     * A talking customer whose socket is gone this long has hung up: longer than a waiting one's, since the call's
     * media may be reconnecting meanwhile.
     */
    talkingCustomerGraceMs: number;
    /** An agent with no socket this long goes Offline (a short drop keeps the status). */
    agentGraceMs: number;
    /** A created call whose customer never connects is MISSED after this. */
    unattachedCallMs: number;
    /** Largest recording taken (MAX_RECORDING_BYTES; tests lower it). */
    maxRecordingBytes: number;
    /** The least time between two pushes of a company's instant stats (tests lower it). */
    statsEveryMs: number;
  };
  /**
   * How call peers find each other across networks: STUN/TURN addresses, the secret shared with the TURN server
   * that per-call credentials are minted from, their lifetime, and whether calls use relayed paths alone by
   * default (a company may ask it too).
   */
  ice: {
    urls: string[];
    secret: string | null;
    credentialTtlSeconds: number;
    transportPolicy: 'all' | 'relay';
  };
  /**
   * Limits against abuse (docs/server.md): a company's storage quota, uploads per user (a minute's count and how
   * many at once), and calls created per join link and per client address in an hour.
   */
  limits: {
    companyStorageBytes: number;
    uploadsPerMinute: number;
    uploadsAtOnce: number;
    callsPerLinkPerHour: number;
    callsPerAddressPerHour: number;
  };
  /**
   * Rate limits of routes that do real work for whoever calls them (server/http/rateLimits.ts;
   * docs/decisions/0198-rate-limits-and-evidence-roles.md). Every window of a route counts each request.
   */
  rateLimits: {
    /** POST /login/passkey/options: each answer stores a challenge for 5 minutes. */
    passkeyOptions: RouteLimit[];
    /** POST /login/passkey: signature checks, unauthenticated. */
    passkeySignIns: RouteLimit[];
    /** GET /videocall/{id}/evidence: a ZIP with the recording, a PDF and a signature, built per request. */
    evidencePackages: RouteLimit[];
    /** POST /videocall/{id}/whispers: each one lands on an agent in a live call. */
    whispers: RouteLimit[];
    /** Statistics and exports computed over a range of days (bitool, call report, review metrics and CSV). */
    reports: RouteLimit[];
    /** Routes that call a paid or slow service each time (summariser, AML screening, webhook test delivery). */
    outsideCalls: RouteLimit[];
  };
  /** AML screening: a full list file (else the bundled sample), its format, the hit threshold (0–100). */
  aml: {
    listPath: string | undefined;
    listFormat: 'opensanctions' | 'ofac-sdn' | undefined;
    threshold: number;
  };
  /** Webhook delivery (docs/webhooks.md). */
  webhooks: WebhookConfig;
  /**
   * Proxies trusted to report the client's address in `X-Forwarded-For` (addresses or CIDR ranges); empty: none,
   * the connection's address is the client's (the IP allow-list reads it).
   */
  trustProxy: string[];
  /** How long a company's IP allow-list is reused between requests (this process's writes forget it at once). */
  ipAllowListCacheMs: number;
  /** Distributed mode (docs/operators/distributed.md): socket.io's Redis adapter and the shared call desk. */
  redisUrl: string | undefined;
  /** Recordings and document pages in an S3-compatible store instead of `${dataDir}/storage`. */
  s3: S3Config | undefined;
  /** The key-encryption keys of stored files (STORAGE_KEK or STORAGE_KEK_FILE; neither: derived from the secret). */
  storageKek: KekConfig;
  /** Bearer token of GET /metrics; unset: /metrics answers 404. */
  metricsToken: string | undefined;
  /** Where spans go over OTLP/HTTP (docs/operators/tracing.md); unset: no tracing, the SDK is not loaded. */
  otlpEndpoint?: string;
  /** On SIGTERM, how long uploads and requests in flight may take to finish. */
  shutdownGraceMs: number;
  /** Logs: `json` (one JSON object per line) or `pretty` (pino-pretty). */
  logFormat: 'json' | 'pretty';
  /** The payment provider: the local payment service unless another adapter is configured. */
  payment: PaymentConfig;
  /** Evidence packages and their retention (docs/decisions/0140-evidence-package.md). */
  evidence: EvidenceConfig;
}

export interface EvidenceConfig {
  /** The Ed25519 key that signs evidence manifests (PKCS#8 PEM); unset: one kept sealed in the database. */
  signingKeyPem: string | undefined;
  /** How often this process runs the retention job (0: never). */
  retentionSweepMs: number;
  /** How often this process writes its buffered reads to the access log. */
  accessLogFlushMs: number;
  /** How long the access log keeps a read. */
  accessLogRetentionDays: number;
  /** How often this process carries out due erasures (0: never). */
  erasureSweepMs: number;
}

/**
 * The least time between two pushes of a company's stats: with thousands waiting and a hundred staff screens,
 * one push per event would be a hundred messages per join. The default of `calls.statsEveryMs`.
 */
export const STATS_EVERY_MS = 250;

export interface S3Config {
  bucket: string;
  /** For an S3-compatible store (MinIO, s3rver); unset: AWS. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the AWS SDK's default chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Path-style addresses (http://endpoint/bucket/key), which most S3-compatible stores need. */
  forcePathStyle: boolean;
}

export interface PaymentConfig {
  /** The payment service's address (default: this server's port + 1000). */
  serviceUrl: string;
  /** The merchant's secret API key at the provider (default derived from the JWT secret). */
  apiKey: string;
  /** Verifies the provider's signed notifications (`whsec_…`; default derived). */
  webhookSecret: string;
  /** How long a checkout session stays payable. */
  sessionTtlSeconds: number;
  /** A notification older (or newer) than this is refused (5 minutes, as Standard Webhooks advises). */
  toleranceSeconds: number;
  /** Stripe instead of the local payment service; unset: the local service, the demo's and the tests'. */
  stripe: StripeOptions | undefined;
}

export interface MailConfig {
  /** The product's name in every e-mail. */
  product: string;
  /** Delays (seconds) before each retry of a message the relay did not take. */
  retrySchedule: number[];
  /** How often the worker looks for due mail when nothing wakes it sooner. */
  pollMs: number;
  /** How long a claimed message is hidden from other workers while it is handed to the relay. */
  leaseMs: number;
  /** Run the mail worker in this process. */
  worker: boolean;
}

export interface WebhookConfig {
  /** Delays (seconds) before each retry. */
  retrySchedule: number[];
  /** Deliver to loopback/private/link-local addresses too (local development, tests). */
  allowPrivate: boolean;
  /** An endpoint failing every attempt this long is disabled. */
  disableAfterSeconds: number;
  /** Per-attempt time-out (15 s). */
  timeoutMs: number;
  /** How often the worker looks for due work when nothing wakes it sooner. */
  pollMs: number;
  /** Run the delivery worker in this process. */
  worker: boolean;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** A retry schedule as WEBHOOK_RETRY_SCHEDULE and MAIL_RETRY_SCHEDULE read it (the fallback when unset). */
export function readRetrySchedule(
  value: string | undefined,
  fallback = DEFAULT_RETRY_SCHEDULE,
  name = 'WEBHOOK_RETRY_SCHEDULE',
): number[] {
  if (value === undefined || value.trim() === '') return fallback;
  const delays = parseRetrySchedule(value);
  if (!delays) throw new Error(`${name} must be comma-separated seconds (0..604800), got ${value}`);
  return delays;
}

/** Whether a listening host is loopback alone (not 0.0.0.0, ::, or a public interface). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** The payment secrets, when not given: derived from the JWT secret, so `npm start` needs no setting. */
export function derivedPaymentSecrets(jwtSecret: string): { apiKey: string; webhookSecret: string } {
  const derive = (label: string) => createHmac('sha256', jwtSecret).update(label).digest();
  return {
    apiKey: `sk_test_${derive('payment-api-key').toString('base64url')}`,
    webhookSecret: `whsec_${derive('payment-webhook-secret').toString('base64')}`,
  };
}

/**
 * The configuration from the environment (`process.env` unless given). Reads the kept JWT secret but writes
 * nothing: without JWT_SECRET and a kept secret, the secret is this process's alone, so whatever seeds data
 * or starts the server calls `ensureSecretFile` (server/secretFile.ts) first.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return configFrom(parseEnvironment(env));
}

/** The ICE settings, checked together (a `turn:` address needs the secret; relay alone needs a `turn:`). */
export function readIce(env: NodeJS.ProcessEnv): ServerConfig['ice'] {
  return iceOf(parseEnvironment(env));
}

function configFrom(e: Environment): ServerConfig {
  const production = e.NODE_ENV === 'production';
  const port = e.PORT;
  const host = e.HOST;
  const jwtSecret = e.JWT_SECRET ?? keptSecret(e.DATA_DIR) ?? newSecret();
  const paymentSecrets = derivedPaymentSecrets(jwtSecret);
  const publicUrl = e.PUBLIC_URL ?? `http://127.0.0.1:${port}`;
  const secondRegionUrl = e.SECOND_REGION_URL ?? `http://localhost:${port}`;
  return {
    port,
    host,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    pgliteDir: join(e.DATA_DIR, 'pg'),
    publicUrl,
    secondRegionUrl,
    jwtSecret,
    studioDist: e.STUDIO_DIST,
    logLevel: e.LOG_LEVEL,
    slowRequestMs: e.SLOW_REQUEST_MS,
    argon2: { memoryCost: 19_456, timeCost: 2 },
    loginRateLimit: {
      perAccount: e.LOGIN_LIMIT_PER_ACCOUNT,
      perAddress: e.LOGIN_LIMIT_PER_ADDRESS,
      timeWindowMs: HOUR_MS,
    },
    accessTokenTtlSeconds: 12 * 3600,
    socketTokenTtlSeconds: 5 * 60,
    sessionCacheMs: 5_000,
    listCountCacheMs: 2_000,
    listCountCap: e.LIST_COUNT_CAP,
    seedOnEmpty: true,
    mfaSetupTokenTtlSeconds: 10 * 60,
    oneTimeCodes: {
      ttlMs: 10 * MINUTE_MS,
      maxAttempts: 5,
      sendsPerEmail: e.CODE_SEND_LIMIT_PER_EMAIL,
      timeWindowMs: MINUTE_MS,
    },
    devEndpoints: devEndpointsOf(e, production),
    studioOrigins: [
      ...new Set([publicUrl, secondRegionUrl].map((url) => new URL(url).origin).concat(e.STUDIO_ORIGINS)),
    ],
    allowLoopbackOrigins: e.NODE_ENV === 'development',
    timeouts: timeoutsOf(e),
    mailConsole: !production,
    smtpUrl: e.SMTP_URL,
    twilio: twilioOf(e),
    mailFrom: e.MAIL_FROM,
    mail: {
      product: e.MAIL_PRODUCT_NAME,
      retrySchedule: e.MAIL_RETRY_SCHEDULE,
      pollMs: e.MAIL_POLL_MS,
      leaseMs: 120_000,
      worker: e.MAIL_WORKER,
    },
    faceMatch: { engine: e.FACE_MATCH, minSimilarity: e.FACE_MATCH_MIN_SIMILARITY },
    machineChecks: { enabled: e.MACHINE_CHECKS === 'on', faceThreshold: e.MACHINE_CHECK_FACE_THRESHOLD },
    summariser: e.SUMMARISER_URL
      ? { url: e.SUMMARISER_URL, model: e.SUMMARISER_MODEL, apiKey: e.SUMMARISER_API_KEY }
      : undefined,
    calls: {
      joinLinkTtlSeconds: 24 * 3600,
      customerGraceMs: e.CALL_CUSTOMER_GRACE_MS,
      talkingCustomerGraceMs: e.CALL_TALKING_CUSTOMER_GRACE_MS,
      agentGraceMs: e.CALL_AGENT_GRACE_MS,
      unattachedCallMs: 30_000,
      maxRecordingBytes: MAX_RECORDING_BYTES,
      statsEveryMs: STATS_EVERY_MS,
    },
    ice: iceOf(e),
    limits: {
      companyStorageBytes: e.COMPANY_STORAGE_QUOTA_GB * 1024 ** 3,
      uploadsPerMinute: e.UPLOADS_PER_MINUTE,
      uploadsAtOnce: e.UPLOADS_AT_ONCE,
      callsPerLinkPerHour: e.CALLS_PER_LINK_PER_HOUR,
      callsPerAddressPerHour: e.CALLS_PER_ADDRESS_PER_HOUR,
    },
    rateLimits: rateLimitsOf(e),
    aml: { listPath: e.AML_LIST_PATH, listFormat: e.AML_LIST_FORMAT, threshold: e.AML_MATCH_THRESHOLD },
    webhooks: {
      retrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      disableAfterSeconds: e.WEBHOOK_DISABLE_AFTER_SECONDS,
      timeoutMs: 15_000,
      pollMs: e.WEBHOOK_POLL_MS,
      worker: e.WEBHOOK_WORKER,
    },
    trustProxy: e.TRUST_PROXY,
    ipAllowListCacheMs: 2_000,
    redisUrl: e.REDIS_URL,
    s3: s3Of(e),
    storageKek: { keys: e.STORAGE_KEK, file: e.STORAGE_KEK_FILE },
    metricsToken: e.METRICS_TOKEN,
    otlpEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logFormat: e.LOG_FORMAT ?? (!production && process.stdout.isTTY ? 'pretty' : 'json'),
    payment: {
      serviceUrl: e.PAYMENT_SERVICE_URL ?? `http://127.0.0.1:${port + 1000}`,
      apiKey: e.PAYMENT_API_KEY ?? paymentSecrets.apiKey,
      webhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? paymentSecrets.webhookSecret,
      sessionTtlSeconds: e.PAYMENT_SESSION_TTL_SECONDS,
      toleranceSeconds: 300,
      stripe: stripeOf(e),
    },
    evidence: {
      signingKeyPem: e.EVIDENCE_SIGNING_KEY,
      retentionSweepMs: e.EVIDENCE_RETENTION_SWEEP_MS,
      accessLogFlushMs: e.ACCESS_LOG_FLUSH_MS,
      accessLogRetentionDays: e.ACCESS_LOG_RETENTION_DAYS,
      erasureSweepMs: e.ERASURE_SWEEP_MS,
    },
  };
}

/**
 * The dev endpoints list e-mailed codes: never in production, even asked for. Unasked, they are on when the
 * server listens on loopback alone outside production.
 */
function devEndpointsOf(e: Environment, production: boolean): boolean {
  if (e.DEV_ENDPOINTS === true && production)
    throw new Error('DEV_ENDPOINTS=1 cannot be used with NODE_ENV=production: it lists e-mailed codes');
  return e.DEV_ENDPOINTS ?? (!production && isLoopbackHost(e.HOST));
}

/**
 * Slow clients: 28 s without a byte closes a connection (above socket.io's 25 s polling ping, so a held poll
 * lives; a stalled body is cut within 30 s); headers within 10 s; a whole request within 15 minutes (a 300 MB
 * recording needs about 2.7 Mbit/s for it).
 */
function timeoutsOf(e: Environment): ServerConfig['timeouts'] {
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS)
    throw new Error('HEADERS_TIMEOUT_MS must not be above REQUEST_TIMEOUT_MS');
  return { requestMs: e.REQUEST_TIMEOUT_MS, headersMs: e.HEADERS_TIMEOUT_MS, idleMs: e.IDLE_TIMEOUT_MS };
}

/** The Twilio settings: all three or none (a partial set is a mistake worth stopping the start for). */
function twilioOf(e: Environment): TwilioOptions | undefined {
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
  const missing = names.filter((name) => e[name] === undefined);
  if (missing.length === names.length) {
    if (e.TWILIO_API_BASE) throw new Error(`TWILIO_API_BASE needs ${names.join(', ')}`);
    return undefined;
  }
  if (missing.length > 0)
    throw new Error(`Twilio needs ${names.join(', ')} (missing: ${missing.join(', ')})`);
  return {
    accountSid: e.TWILIO_ACCOUNT_SID ?? '',
    authToken: e.TWILIO_AUTH_TOKEN ?? '',
    from: e.TWILIO_FROM ?? '',
    apiBase: e.TWILIO_API_BASE,
  };
}

/** The Stripe settings: both secrets or neither (one alone is a mistake worth stopping the start for). */
function stripeOf(e: Environment): StripeOptions | undefined {
  const secretKey = e.STRIPE_SECRET_KEY;
  const webhookSecret = e.STRIPE_WEBHOOK_SECRET;
  if (!secretKey && !webhookSecret) {
    if (e.STRIPE_API_BASE)
      throw new Error('STRIPE_API_BASE needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    return undefined;
  }
  if (!secretKey || !webhookSecret)
    throw new Error(
      `Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (${secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'} is missing)`,
    );
  return { secretKey, webhookSecret, apiBase: e.STRIPE_API_BASE };
}

/** A `turn:` address needs the shared secret to mint credentials; relay alone needs a `turn:` address. */
function iceOf(e: Environment): ServerConfig['ice'] {
  const urls = e.TURN_URLS;
  const secret = e.TURN_SECRET ?? null;
  const hasTurn = urls.some((url) => /^turns?:/i.test(url));
  if (hasTurn && secret === null) throw new Error('TURN_URLS has turn: addresses, so TURN_SECRET is needed');
  if (e.ICE_TRANSPORT_POLICY === 'relay' && !hasTurn)
    throw new Error('ICE_TRANSPORT_POLICY=relay needs a turn: or turns: address in TURN_URLS');
  return {
    urls,
    secret,
    credentialTtlSeconds: e.TURN_CREDENTIAL_TTL_SECONDS,
    transportPolicy: e.ICE_TRANSPORT_POLICY,
  };
}

function s3Of(e: Environment): S3Config | undefined {
  if (!e.S3_BUCKET) return undefined;
  const accessKeyId = e.S3_ACCESS_KEY_ID ?? e.AWS_ACCESS_KEY_ID;
  const secretAccessKey = e.S3_SECRET_ACCESS_KEY ?? e.AWS_SECRET_ACCESS_KEY;
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION ?? e.AWS_REGION ?? 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
  };
}

/**
 * The route limits. A person needs one passkey challenge per sign-in and a few packages or reports a minute; a
 * bank's archive fetching every call's package stays far below 10 a minute.
 */
function rateLimitsOf(e: Environment): ServerConfig['rateLimits'] {
  const window = (per: RouteLimit['per'], points: number, seconds: number): RouteLimit => ({
    per,
    points,
    seconds,
  });
  return {
    passkeyOptions: [
      window('address', e.PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE, 60),
      // Over the 5 minutes a challenge lives: bounds the unused challenges stored at once.
      window('all', e.PASSKEY_OPTIONS_PER_5_MINUTES, 300),
    ],
    passkeySignIns: [window('address', e.PASSKEY_SIGNINS_PER_ADDRESS_PER_MINUTE, 60)],
    evidencePackages: [
      window('user', e.EVIDENCE_PACKAGES_PER_USER_PER_MINUTE, 60),
      window('company', e.EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE, 60),
    ],
    whispers: [window('user', e.WHISPERS_PER_USER_PER_MINUTE, 60)],
    reports: [
      window('user', e.REPORTS_PER_USER_PER_MINUTE, 60),
      window('company', e.REPORTS_PER_COMPANY_PER_MINUTE, 60),
    ],
    outsideCalls: [
      window('user', e.OUTSIDE_CALLS_PER_USER_PER_MINUTE, 60),
      window('company', e.OUTSIDE_CALLS_PER_COMPANY_PER_MINUTE, 60),
    ],
  };
}
