import { createHmac, createPrivateKey, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { MAX_RECORDING_BYTES } from '#contract/constants';
import { DEFAULT_COUNT_CAP } from './domain/counting';
import { readTrustProxy } from './domain/ipAllowList';
import type { StripeOptions } from './integrations/payment/stripeProvider';
import type { TwilioOptions } from './integrations/twilioSms';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

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
  /** argon2 cost; tests lower it. */
  argon2: { memoryCost: number; timeCost: number };
  /**
   * Sign-in limits (server/auth/attemptLimiter.ts): failures in a row of one account from one address before each
   * further try waits a growing delay (LOGIN_LIMIT_PER_ACCOUNT), and failures from one address within the window
   * (LOGIN_LIMIT_PER_ADDRESS per hour).
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
   * (record 0164). LIST_COUNT_CAP; tests set it low to reach the estimate with little data.
   */
  listCountCap: number;
  /** Seed the demo data when the database has no company yet. */
  seedOnEmpty: boolean;
  /** Lifetime of the restricted token of a forced two-factor setup. */
  mfaSetupTokenTtlSeconds: number;
  /** E-mailed one-time codes: lifetime, wrong tries allowed, sends per e-mail per minute. */
  oneTimeCodes: { ttlMs: number; maxAttempts: number; sendsPerEmail: number; timeWindowMs: number };
  /**
   * `/api/dev/*` (the outbox listing, socket drops), for loopback callers only (server/routes/dev.ts). Default: on
   * when the server listens on loopback alone outside production; DEV_ENDPOINTS=1 turns it on anywhere but in
   * production (refused there), DEV_ENDPOINTS=0 off.
   */
  devEndpoints: boolean;
  /**
   * Origins whose browsers may call the API and open sockets (CORS, socket.io): PUBLIC_URL's, SECOND_REGION_URL's
   * and STUDIO_ORIGINS'; `allowLoopbackOrigins` adds any loopback origin (NODE_ENV=development, `npm run dev`).
   */
  studioOrigins: string[];
  allowLoopbackOrigins: boolean;
  /**
   * Slow clients (docs/server.md "Timeouts"): a connection with no bytes in or out for `idleMs` is closed
   * (IDLE_TIMEOUT_MS: a stalled body), the headers must arrive within `headersMs` (HEADERS_TIMEOUT_MS) and the
   * whole request within `requestMs` (REQUEST_TIMEOUT_MS).
   */
  timeouts: { requestMs: number; headersMs: number; idleMs: number };
  /** Print every outgoing e-mail on one console line (not in production). */
  mailConsole: boolean;
  /** Send e-mail by SMTP as well (`smtp://user:pass@host:587`, `smtps://…`); unset: outbox only. */
  smtpUrl: string | undefined;
  /**
   * Send text messages through Twilio as well (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM, all or
   * none; TWILIO_API_BASE for a fake of its API); unset: the `sms_outbox` table only.
   */
  twilio: TwilioOptions | undefined;
  /** Sender address of e-mails (env MAIL_FROM). */
  mailFrom: string;
  /** The mail queue (record 0160). */
  mail: MailConfig;
  /** Face comparison at login: `human` (local face-embedding model) or `off` (photo login refused). */
  faceMatch: { engine: 'human' | 'off'; minSimilarity: number };
  /** A language-model endpoint (OpenAI-compatible chat completions) for profile summaries; unset: local rules. */
  summariser: { url: string; model: string; apiKey: string | undefined } | undefined;
  /** Live calls (docs/server.md): join-link lifetime and how long a dropped socket may take to come back. */
  calls: {
    joinLinkTtlSeconds: number;
    /** A waiting customer whose socket is gone this long has left: the call is MISSED. */
    customerGraceMs: number;
    /** An agent with no socket this long goes Offline (a short drop keeps the status). */
    agentGraceMs: number;
    /** A created call whose customer never connects is MISSED after this. */
    unattachedCallMs: number;
    /** Largest recording taken (§5: 300 MB; tests lower it). */
    maxRecordingBytes: number;
    /** The least time between two pushes of a company's instant stats (STATS_EVERY_MS; tests lower it). */
    statsEveryMs: number;
  };
  /**
   * Limits against abuse (issue 25, point 6; docs/server.md): a company's storage quota, uploads per user (a
   * minute's count and how many at once), and calls created per join link and per client address in an hour.
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
   * Proxies trusted to report the client's address in `X-Forwarded-For` (env TRUST_PROXY: comma-separated
   * addresses or CIDR ranges); empty: none, the connection's address is the client's (IP allow-list, issue 15).
   */
  trustProxy: string[];
  /** How long a company's IP allow-list is reused between requests (this process's writes forget it at once). */
  ipAllowListCacheMs: number;
  /** Distributed mode (README "Distributed mode"): socket.io's Redis adapter and the shared call desk. */
  redisUrl: string | undefined;
  /** Recordings and document pages in an S3-compatible store instead of `${dataDir}/storage`. */
  s3: S3Config | undefined;
  /** Bearer token of GET /metrics (METRICS_TOKEN); unset: /metrics answers 404. */
  metricsToken: string | undefined;
  /** On SIGTERM, how long uploads and requests in flight may take to finish (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** Logs: `json` (one JSON object per line) or `pretty` (pino-pretty); default pretty on a terminal in development. */
  logFormat: 'json' | 'pretty';
  /** The payment provider (issue 15): the local payment service unless another adapter is configured. */
  payment: PaymentConfig;
  /** Evidence packages and their retention (issue 29, docs/decisions/0140-evidence-package.md). */
  evidence: EvidenceConfig;
}

export interface EvidenceConfig {
  /**
   * The Ed25519 key that signs evidence manifests, as PKCS#8 PEM (EVIDENCE_SIGNING_KEY: the PEM itself, or the
   * base64 of its DER). Unset: one generated once and kept in the database, sealed with the server secret.
   */
  signingKeyPem: string | undefined;
  /** How often this process runs the retention job (EVIDENCE_RETENTION_SWEEP_MS, default 1 hour; 0: never). */
  retentionSweepMs: number;
}

/**
 * The least time between two pushes of a company's stats (issue 31): with thousands waiting and a hundred staff
 * screens, one push per event would be a hundred messages per join. The default of `calls.statsEveryMs`.
 */
export const STATS_EVERY_MS = 250;

/** EVIDENCE_SIGNING_KEY as PKCS#8 PEM: given as PEM, or as the base64 of the DER; it must be an Ed25519 key. */
export function readEvidenceKey(value: string | undefined): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  try {
    const key = text.startsWith('-----BEGIN')
      ? createPrivateKey(text.replace(/\\n/g, '\n'))
      : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`a ${key.asymmetricKeyType} key`);
    return key.export({ format: 'pem', type: 'pkcs8' }).toString();
  } catch (error) {
    throw new Error(
      `EVIDENCE_SIGNING_KEY must be an Ed25519 private key (PKCS#8 PEM or base64 DER): ${(error as Error).message}`,
    );
  }
}

export interface S3Config {
  bucket: string;
  /** For an S3-compatible store (MinIO, s3rver); unset: AWS. */
  endpoint: string | undefined;
  region: string;
  /** Unset: the AWS SDK's default chain (environment, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Path-style addresses (http://endpoint/bucket/key), which most S3-compatible stores need. */
  forcePathStyle: boolean;
  /** /storage redirects to a 5-minute presigned link of the store instead of streaming (S3_DIRECT_DOWNLOADS). */
  directDownloads: boolean;
}

export interface PaymentConfig {
  /** The payment service's address (env PAYMENT_SERVICE_URL; default: this server's port + 1000). */
  serviceUrl: string;
  /** The merchant's secret API key at the provider (PAYMENT_API_KEY; default derived from JWT_SECRET). */
  apiKey: string;
  /** Verifies the provider's signed notifications (PAYMENT_WEBHOOK_SECRET, `whsec_…`; default derived). */
  webhookSecret: string;
  /** How long a checkout session stays payable (PAYMENT_SESSION_TTL_SECONDS, default 30 minutes). */
  sessionTtlSeconds: number;
  /** A notification older (or newer) than this is refused (5 minutes, as Standard Webhooks advises). */
  toleranceSeconds: number;
  /**
   * Stripe instead of the local payment service (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, both or
   * neither; STRIPE_API_BASE for a fake of its API). Unset: the local service, the demo's and the tests'.
   */
  stripe: StripeOptions | undefined;
}

/** The Twilio settings: all three or none (a partial set is a mistake worth stopping the start for). */
export function readTwilio(env: NodeJS.ProcessEnv): TwilioOptions | undefined {
  const names = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const;
  const missing = names.filter((name) => !env[name]);
  if (missing.length === names.length) {
    if (env.TWILIO_API_BASE) throw new Error(`TWILIO_API_BASE needs ${names.join(', ')}`);
    return undefined;
  }
  if (missing.length > 0)
    throw new Error(`Twilio needs ${names.join(', ')} (missing: ${missing.join(', ')})`);
  const accountSid = env.TWILIO_ACCOUNT_SID ?? '';
  const from = env.TWILIO_FROM ?? '';
  if (!/^AC[0-9a-zA-Z]{32}$/.test(accountSid))
    throw new Error('TWILIO_ACCOUNT_SID must be an account SID (AC followed by 32 characters)');
  if (!/^(\+[1-9]\d{6,14}|MG[0-9a-zA-Z]{32})$/.test(from))
    throw new Error('TWILIO_FROM must be a number in E.164 (+15005550006) or a Messaging Service SID (MG…)');
  const apiBase = env.TWILIO_API_BASE || undefined;
  if (apiBase !== undefined && !/^https?:\/\/[^/]+\/?$/.test(apiBase))
    throw new Error(`TWILIO_API_BASE must be an http(s) address without a path, got ${apiBase}`);
  return { accountSid, authToken: env.TWILIO_AUTH_TOKEN ?? '', from, apiBase };
}

/** The Stripe settings: both secrets or neither (one alone is a mistake worth stopping the start for). */
export function readStripe(env: NodeJS.ProcessEnv): StripeOptions | undefined {
  const secretKey = env.STRIPE_SECRET_KEY || undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || undefined;
  if (!secretKey && !webhookSecret) {
    if (env.STRIPE_API_BASE)
      throw new Error('STRIPE_API_BASE needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
    return undefined;
  }
  if (!secretKey || !webhookSecret)
    throw new Error(
      `Stripe needs both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (${secretKey ? 'STRIPE_WEBHOOK_SECRET' : 'STRIPE_SECRET_KEY'} is missing)`,
    );
  if (!/^(sk|rk)_(test|live)_\S+$/.test(secretKey))
    throw new Error(
      'STRIPE_SECRET_KEY must be a secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)',
    );
  if (!/^whsec_\S+$/.test(webhookSecret))
    throw new Error('STRIPE_WEBHOOK_SECRET must be an endpoint signing secret (whsec_…)');
  const apiBase = env.STRIPE_API_BASE || undefined;
  if (apiBase !== undefined && !/^https?:\/\/[^/]+\/?$/.test(apiBase))
    throw new Error(`STRIPE_API_BASE must be an http(s) address without a path, got ${apiBase}`);
  return { secretKey, webhookSecret, apiBase };
}

/** The payment secrets, when not given: derived from the JWT secret, so `npm start` needs no setting. */
export function derivedPaymentSecrets(jwtSecret: string): { apiKey: string; webhookSecret: string } {
  const derive = (label: string) => createHmac('sha256', jwtSecret).update(label).digest();
  return {
    apiKey: `sk_test_${derive('payment-api-key').toString('base64url')}`,
    webhookSecret: `whsec_${derive('payment-webhook-secret').toString('base64')}`,
  };
}

export interface MailConfig {
  /** The product's name in every e-mail (MAIL_PRODUCT_NAME). */
  product: string;
  /** Delays (seconds) before each retry of a message the relay did not take (MAIL_RETRY_SCHEDULE). */
  retrySchedule: number[];
  /** How often the worker looks for due mail when nothing wakes it sooner (MAIL_POLL_MS). */
  pollMs: number;
  /** How long a claimed message is hidden from other workers while it is handed to the relay. */
  leaseMs: number;
  /** Run the mail worker in this process (MAIL_WORKER=0 turns it off). */
  worker: boolean;
}

/** 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h: eight attempts over about a day (±20 % jitter). */
export const DEFAULT_MAIL_RETRY_SCHEDULE = [30, 120, 600, 3_600, 10_800, 21_600, 43_200];

export interface WebhookConfig {
  /** Delays (seconds) before each retry; env WEBHOOK_RETRY_SCHEDULE (comma-separated). */
  retrySchedule: number[];
  /** Deliver to loopback/private/link-local addresses too (local development, tests): WEBHOOK_ALLOW_PRIVATE=1. */
  allowPrivate: boolean;
  /** An endpoint failing every attempt this long is disabled (WEBHOOK_DISABLE_AFTER_SECONDS, default 5 days). */
  disableAfterSeconds: number;
  /** Per-attempt time-out (15 s). */
  timeoutMs: number;
  /** How often the worker looks for due work when nothing wakes it sooner. */
  pollMs: number;
  /** Run the delivery worker in this process (WEBHOOK_WORKER=0 turns it off). */
  worker: boolean;
}

/** Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt (±20 % jitter). */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

export function readRetrySchedule(
  value: string | undefined,
  fallback = DEFAULT_RETRY_SCHEDULE,
  name = 'WEBHOOK_RETRY_SCHEDULE',
): number[] {
  if (value === undefined || value.trim() === '') return fallback;
  const delays = value.split(',').map((part) => Number(part.trim()));
  if (delays.length > 50 || delays.some((d) => !Number.isFinite(d) || d < 0 || d > 7 * 86_400)) {
    throw new Error(`${name} must be comma-separated seconds (0..604800), got ${value}`);
  }
  return delays;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readPort(value: string | undefined): number {
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be 0..65535, got ${value}`);
  return port;
}

function readFlag(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(value)) return true;
  if (/^(0|false|no|off)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false, got ${value}`);
}

/** Whether a listening host is loopback alone (not 0.0.0.0, ::, or a public interface). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

function readDevEndpoints(env: NodeJS.ProcessEnv, production: boolean, host: string): boolean {
  const explicit = readFlag(env.DEV_ENDPOINTS, false, 'DEV_ENDPOINTS');
  if (explicit && production)
    throw new Error('DEV_ENDPOINTS=1 cannot be used with NODE_ENV=production: it lists e-mailed codes');
  if (env.DEV_ENDPOINTS !== undefined && env.DEV_ENDPOINTS !== '') return explicit;
  return !production && isLoopbackHost(host);
}

/**
 * Slow clients: 28 s without a byte closes a connection (above socket.io's 25 s polling ping, so a held poll
 * lives; a stalled body is cut within 30 s); headers within 10 s; a whole request within 15 minutes (a 300 MB
 * recording needs about 2.7 Mbit/s for it).
 */
function readTimeouts(env: NodeJS.ProcessEnv): ServerConfig['timeouts'] {
  const timeouts = {
    requestMs: readCount(env.REQUEST_TIMEOUT_MS, 15 * 60_000, 'REQUEST_TIMEOUT_MS'),
    headersMs: readCount(env.HEADERS_TIMEOUT_MS, 10_000, 'HEADERS_TIMEOUT_MS'),
    idleMs: readCount(env.IDLE_TIMEOUT_MS, 28_000, 'IDLE_TIMEOUT_MS'),
  };
  if (timeouts.headersMs > timeouts.requestMs)
    throw new Error('HEADERS_TIMEOUT_MS must not be above REQUEST_TIMEOUT_MS');
  return timeouts;
}

/** The origin (scheme, host, port) of each address; a value that is not an http(s) address is refused. */
function readOrigins(values: string[], name: string): string[] {
  return values.map((value) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`${name} must hold http(s) addresses, got ${value}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`${name} must hold http(s) addresses, got ${value}`);
    return url.origin;
  });
}

function readSimilarity(value: string | undefined): number {
  if (value === undefined || value === '') return 0.7;
  const similarity = Number(value);
  if (!(similarity > 0 && similarity < 1))
    throw new Error(`FACE_MATCH_MIN_SIMILARITY must be between 0 and 1, got ${value}`);
  return similarity;
}

function readFaceEngine(value: string | undefined): 'human' | 'off' {
  if (value === undefined || value === '' || value === 'human') return 'human';
  if (value === 'off') return 'off';
  throw new Error(`FACE_MATCH must be human or off, got ${value}`);
}

function readAmlFormat(value: string | undefined): 'opensanctions' | 'ofac-sdn' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'opensanctions' || value === 'ofac-sdn') return value;
  throw new Error(`AML_LIST_FORMAT must be opensanctions or ofac-sdn, got ${value}`);
}

function readAmlThreshold(value: string | undefined): number {
  if (value === undefined || value === '') return 85;
  const threshold = Number(value);
  if (!Number.isInteger(threshold) || threshold < 1 || threshold > 100)
    throw new Error(`AML_MATCH_THRESHOLD must be a whole number from 1 to 100, got ${value}`);
  return threshold;
}

function readCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`${name} must be a whole number above 0, got ${value}`);
  return count;
}

/**
 * The route limits and their environment variables. A person needs one passkey challenge per sign-in and a few
 * packages or reports a minute; a bank's archive fetching every call's package stays far below 10 a minute.
 */
function readRateLimits(env: NodeJS.ProcessEnv): ServerConfig['rateLimits'] {
  const window = (per: RouteLimit['per'], name: string, fallback: number, seconds: number): RouteLimit => ({
    per,
    points: readCount(env[name], fallback, name),
    seconds,
  });
  return {
    passkeyOptions: [
      window('address', 'PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE', 30, 60),
      // Over the 5 minutes a challenge lives: bounds the unused challenges stored at once.
      window('all', 'PASSKEY_OPTIONS_PER_5_MINUTES', 3000, 300),
    ],
    passkeySignIns: [window('address', 'PASSKEY_SIGNINS_PER_ADDRESS_PER_MINUTE', 30, 60)],
    evidencePackages: [
      window('user', 'EVIDENCE_PACKAGES_PER_USER_PER_MINUTE', 10, 60),
      window('company', 'EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE', 30, 60),
    ],
    reports: [
      window('user', 'REPORTS_PER_USER_PER_MINUTE', 30, 60),
      window('company', 'REPORTS_PER_COMPANY_PER_MINUTE', 120, 60),
    ],
    outsideCalls: [
      window('user', 'OUTSIDE_CALLS_PER_USER_PER_MINUTE', 20, 60),
      window('company', 'OUTSIDE_CALLS_PER_COMPANY_PER_MINUTE', 100, 60),
    ],
  };
}

/** A whole number of 0 or more (0: off). */
function readWhole(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new Error(`${name} must be a whole number, got ${value}`);
  return count;
}

/** The JWT secret from env, else one generated once and kept in `${dataDir}/secret` (mode 600). */
function loadSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'secret');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // no secret yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function readS3(env: NodeJS.ProcessEnv): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  const accessKeyId = env.S3_ACCESS_KEY_ID ?? env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY ?? env.AWS_SECRET_ACCESS_KEY;
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: readFlag(env.S3_FORCE_PATH_STYLE, Boolean(env.S3_ENDPOINT), 'S3_FORCE_PATH_STYLE'),
    directDownloads: readFlag(env.S3_DIRECT_DOWNLOADS, false, 'S3_DIRECT_DOWNLOADS'),
  };
}

function readLogFormat(value: string | undefined, production: boolean): 'json' | 'pretty' {
  if (value === 'json' || value === 'pretty') return value;
  if (value !== undefined && value !== '') throw new Error(`LOG_FORMAT must be json or pretty, got ${value}`);
  return !production && process.stdout.isTTY ? 'pretty' : 'json';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = readPort(env.PORT);
  const production = env.NODE_ENV === 'production';
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  const jwtSecret = loadSecret(dataDir, env.JWT_SECRET);
  const paymentSecrets = derivedPaymentSecrets(jwtSecret);
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const host = env.HOST ?? '127.0.0.1';
  const publicUrl = (env.PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, '');
  const secondRegionUrl = (env.SECOND_REGION_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const extraOrigins = (env.STUDIO_ORIGINS ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return {
    port,
    host,
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: join(dataDir, 'pg'),
    publicUrl,
    secondRegionUrl,
    jwtSecret,
    studioDist: resolve(env.STUDIO_DIST ?? 'dist'),
    logLevel,
    argon2: { memoryCost: 19_456, timeCost: 2 },
    loginRateLimit: {
      perAccount: readCount(env.LOGIN_LIMIT_PER_ACCOUNT, 10, 'LOGIN_LIMIT_PER_ACCOUNT'),
      perAddress: readCount(env.LOGIN_LIMIT_PER_ADDRESS, 100, 'LOGIN_LIMIT_PER_ADDRESS'),
      timeWindowMs: 3_600_000,
    },
    accessTokenTtlSeconds: 12 * 3600,
    socketTokenTtlSeconds: 5 * 60,
    sessionCacheMs: 5_000,
    listCountCacheMs: 2_000,
    listCountCap: readCount(env.LIST_COUNT_CAP, DEFAULT_COUNT_CAP, 'LIST_COUNT_CAP'),
    seedOnEmpty: true,
    mfaSetupTokenTtlSeconds: 10 * 60,
    oneTimeCodes: {
      ttlMs: 10 * 60_000,
      maxAttempts: 5,
      sendsPerEmail: readCount(env.CODE_SEND_LIMIT_PER_EMAIL, 5, 'CODE_SEND_LIMIT_PER_EMAIL'),
      timeWindowMs: 60_000,
    },
    devEndpoints: readDevEndpoints(env, production, host),
    studioOrigins: [
      ...new Set(
        readOrigins(
          [publicUrl, secondRegionUrl, ...extraOrigins],
          'PUBLIC_URL, SECOND_REGION_URL, STUDIO_ORIGINS',
        ),
      ),
    ],
    allowLoopbackOrigins: env.NODE_ENV === 'development',
    timeouts: readTimeouts(env),
    mailConsole: !production,
    smtpUrl: env.SMTP_URL || undefined,
    twilio: readTwilio(env),
    mailFrom: env.MAIL_FROM ?? 'IDV Studio <no-reply@idv-studio.local>',
    mail: {
      product: env.MAIL_PRODUCT_NAME?.trim() || 'Verification Studio',
      retrySchedule: readRetrySchedule(
        env.MAIL_RETRY_SCHEDULE,
        DEFAULT_MAIL_RETRY_SCHEDULE,
        'MAIL_RETRY_SCHEDULE',
      ),
      pollMs: readCount(env.MAIL_POLL_MS, 1_000, 'MAIL_POLL_MS'),
      leaseMs: 120_000,
      worker: readFlag(env.MAIL_WORKER, true, 'MAIL_WORKER'),
    },
    faceMatch: {
      engine: readFaceEngine(env.FACE_MATCH),
      minSimilarity: readSimilarity(env.FACE_MATCH_MIN_SIMILARITY),
    },
    summariser: env.SUMMARISER_URL
      ? { url: env.SUMMARISER_URL, model: env.SUMMARISER_MODEL ?? 'default', apiKey: env.SUMMARISER_API_KEY }
      : undefined,
    calls: {
      joinLinkTtlSeconds: 24 * 3600,
      customerGraceMs: readCount(env.CALL_CUSTOMER_GRACE_MS, 3_000, 'CALL_CUSTOMER_GRACE_MS'),
      agentGraceMs: readCount(env.CALL_AGENT_GRACE_MS, 15_000, 'CALL_AGENT_GRACE_MS'),
      unattachedCallMs: 30_000,
      maxRecordingBytes: MAX_RECORDING_BYTES,
      statsEveryMs: STATS_EVERY_MS,
    },
    limits: {
      companyStorageBytes:
        readCount(env.COMPANY_STORAGE_QUOTA_GB, 100, 'COMPANY_STORAGE_QUOTA_GB') * 1024 ** 3,
      uploadsPerMinute: readCount(env.UPLOADS_PER_MINUTE, 30, 'UPLOADS_PER_MINUTE'),
      uploadsAtOnce: readCount(env.UPLOADS_AT_ONCE, 3, 'UPLOADS_AT_ONCE'),
      callsPerLinkPerHour: readCount(env.CALLS_PER_LINK_PER_HOUR, 10, 'CALLS_PER_LINK_PER_HOUR'),
      callsPerAddressPerHour: readCount(env.CALLS_PER_ADDRESS_PER_HOUR, 30, 'CALLS_PER_ADDRESS_PER_HOUR'),
    },
    rateLimits: readRateLimits(env),
    aml: {
      listPath: env.AML_LIST_PATH ? resolve(env.AML_LIST_PATH) : undefined,
      listFormat: readAmlFormat(env.AML_LIST_FORMAT),
      threshold: readAmlThreshold(env.AML_MATCH_THRESHOLD),
    },
    webhooks: {
      retrySchedule: readRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE),
      allowPrivate: readFlag(env.WEBHOOK_ALLOW_PRIVATE, false, 'WEBHOOK_ALLOW_PRIVATE'),
      disableAfterSeconds: readCount(
        env.WEBHOOK_DISABLE_AFTER_SECONDS,
        5 * 86_400,
        'WEBHOOK_DISABLE_AFTER_SECONDS',
      ),
      timeoutMs: 15_000,
      pollMs: readCount(env.WEBHOOK_POLL_MS, 1_000, 'WEBHOOK_POLL_MS'),
      worker: readFlag(env.WEBHOOK_WORKER, true, 'WEBHOOK_WORKER'),
    },
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    ipAllowListCacheMs: 2_000,
    redisUrl: env.REDIS_URL || undefined,
    s3: readS3(env),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownGraceMs: readCount(env.SHUTDOWN_GRACE_MS, 25_000, 'SHUTDOWN_GRACE_MS'),
    logFormat: readLogFormat(env.LOG_FORMAT, production),
    payment: {
      serviceUrl: (env.PAYMENT_SERVICE_URL ?? `http://127.0.0.1:${port + 1000}`).replace(/\/$/, ''),
      apiKey: env.PAYMENT_API_KEY || paymentSecrets.apiKey,
      webhookSecret: env.PAYMENT_WEBHOOK_SECRET || paymentSecrets.webhookSecret,
      sessionTtlSeconds: readCount(env.PAYMENT_SESSION_TTL_SECONDS, 30 * 60, 'PAYMENT_SESSION_TTL_SECONDS'),
      toleranceSeconds: 300,
      stripe: readStripe(env),
    },
    evidence: {
      signingKeyPem: readEvidenceKey(env.EVIDENCE_SIGNING_KEY),
      retentionSweepMs: readWhole(env.EVIDENCE_RETENTION_SWEEP_MS, 3_600_000, 'EVIDENCE_RETENTION_SWEEP_MS'),
    },
  };
}
