import { createPrivateKey } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { CUSTOMER_GRACE_MARGIN_MS, RECONNECT_GRACE_MS } from '#contract/callReconnect';
import { DEFAULT_COUNT_CAP } from './domain/counting';
import { readTrustProxy } from './domain/ipAllowList';
import { readKekList } from './storage/keyProvider';

/**
 * The server's environment as one schema: every variable it reads, its type, its default and what it means.
 * `server/config.ts` parses `process.env` with it once and derives the `ServerConfig` the code uses;
 * `npm run docs:config` prints it as docs/operators/configuration.md. An empty value counts as unset.
 */

/** The headings of the configuration reference, in their order. */
export const SECTIONS = [
  'Server',
  'Logs and operations',
  'Sign-in',
  'Mail and text messages',
  'Calls',
  'Limits',
  'Route rate limits',
  'Webhooks',
  'Distributed mode and storage',
  'Payments',
  'Evidence',
  'Screening and summaries',
] as const;
export type Section = (typeof SECTIONS)[number];

/** What the reference shows of a variable besides its meaning (which is the schema's description). */
export interface VariableMeta {
  section: Section;
  /** The type in words: "whole number ≥ 1", "true or false", "one of …". */
  type: string;
  /** The default in words, when it is not a plain value (derived from other variables, generated…). */
  default?: string;
  /** Never echoed in an error message. */
  secret?: boolean;
}

const unsetWhenEmpty = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** One variable: its parser (which sees a non-empty string or undefined), its meaning and how it is shown. */
function variable<T extends z.ZodType>(schema: T, meaning: string, meta: VariableMeta) {
  return z
    .preprocess(unsetWhenEmpty, schema)
    .describe(meaning)
    .meta({ ...meta });
}

type Doc = Omit<VariableMeta, 'type'>;

/** A plain default as the reference shows it. */
const shown = (value: number | string | boolean) => `\`${value}\``;

/** A whole number of at least `min`; `Number()` reads it, so `1e3` and ` 5 ` pass as they always did. */
function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  const range =
    max === Number.MAX_SAFE_INTEGER ? (min === 1 ? 'above 0' : `of ${min} or more`) : `from ${min} to ${max}`;
  return z.string().transform((value, ctx) => {
    const number = Number(value);
    if (Number.isInteger(number) && number >= min && number <= max) return number;
    ctx.issues.push({ code: 'custom', message: `must be a whole number ${range}`, input: value });
    return z.NEVER;
  });
}

function count(fallback: number, meaning: string, doc: Doc) {
  return variable(wholeNumber(1).default(fallback), meaning, {
    type: 'whole number ≥ 1',
    default: shown(fallback),
    ...doc,
  });
}

function wholeOrZero(fallback: number, meaning: string, doc: Doc) {
  return variable(wholeNumber(0).default(fallback), meaning, {
    type: 'whole number ≥ 0',
    default: shown(fallback),
    ...doc,
  });
}

const FLAG_TRUE = /^(1|true|yes|on)$/i;
const FLAG_FALSE = /^(0|false|no|off)$/i;
const FLAG_TYPE = 'true or false (1/0, yes/no, on/off)';
const flagValue = z.string().transform((value, ctx) => {
  if (FLAG_TRUE.test(value)) return true;
  if (FLAG_FALSE.test(value)) return false;
  ctx.issues.push({ code: 'custom', message: 'must be true or false', input: value });
  return z.NEVER;
});

function flag(fallback: boolean, meaning: string, doc: Doc) {
  return variable(flagValue.default(fallback), meaning, {
    type: FLAG_TYPE,
    default: shown(fallback),
    ...doc,
  });
}

function optionalFlag(meaning: string, doc: Doc) {
  return variable(flagValue.optional(), meaning, { type: FLAG_TYPE, ...doc });
}

/** A number strictly between 0 and 1 (a similarity of two faces). */
const similarity = (fallback: number) =>
  z
    .string()
    .transform((value, ctx) => {
      const number = Number(value);
      if (number > 0 && number < 1) return number;
      ctx.issues.push({ code: 'custom', message: 'must be between 0 and 1', input: value });
      return z.NEVER;
    })
    .default(fallback);

const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` });
const enumType = (values: readonly string[]) => `one of ${values.map((value) => `\`${value}\``).join(', ')}`;

function oneOf<const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
  meaning: string,
  doc: Doc,
) {
  return variable(enumOf(values).default(fallback), meaning, {
    type: enumType(values),
    default: shown(fallback),
    ...doc,
  });
}

function optionalOneOf<const T extends readonly [string, ...string[]]>(values: T, meaning: string, doc: Doc) {
  return variable(enumOf(values).optional(), meaning, { type: enumType(values), ...doc });
}

function text(fallback: string, meaning: string, doc: Doc & { type?: string }) {
  return variable(z.string().default(fallback), meaning, { type: 'text', default: shown(fallback), ...doc });
}

function optionalText(meaning: string, doc: Doc & { type?: string }) {
  return variable(z.string().optional(), meaning, { type: 'text', ...doc });
}

/** A file or folder, relative to the working directory unless absolute; read as an absolute path. */
const absolutePath = z.string().transform((value) => resolve(value));

function path(fallback: string, meaning: string, doc: Doc & { type: string }) {
  return variable(absolutePath.prefault(fallback), meaning, { default: shown(fallback), ...doc });
}

function optionalPath(meaning: string, doc: Doc & { type: string }) {
  return variable(absolutePath.optional(), meaning, doc);
}

/** An http(s) address; the trailing slash is dropped. */
const httpAddress = z.string().transform((value, ctx) => {
  if (isHttpAddress(value)) return value.replace(/\/$/, '');
  ctx.issues.push({ code: 'custom', message: 'must be an http(s) address', input: value });
  return z.NEVER;
});

function isHttpAddress(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** An http(s) address with nothing after the host (the base of an API, so a fake can stand in). */
function apiBase(meaning: string, doc: Doc) {
  const schema = z
    .string()
    .regex(/^https?:\/\/[^/]+\/?$/, 'must be an http(s) address without a path')
    .optional();
  return variable(schema, meaning, { type: 'http(s) address, no path', ...doc });
}

const commaSeparated = z.string().transform((value) =>
  value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean),
);

/** 30 s, 2 min, 10 min, 1 h, 3 h, 6 h, 12 h: eight attempts over about a day (±20 % jitter). */
export const DEFAULT_MAIL_RETRY_SCHEDULE = [30, 120, 600, 3_600, 10_800, 21_600, 43_200];

/** Svix's schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt (±20 % jitter). */
export const DEFAULT_RETRY_SCHEDULE = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];

const WEEK_SECONDS = 7 * 86_400;

/** Delays in seconds, comma-separated: at most 50, each from 0 to a week. */
export function parseRetrySchedule(value: string): number[] | undefined {
  const delays = value.split(',').map((part) => Number(part.trim()));
  if (delays.length > 50 || delays.some((d) => !Number.isFinite(d) || d < 0 || d > WEEK_SECONDS))
    return undefined;
  return delays;
}

function retrySchedule(fallback: number[], meaning: string, doc: Doc) {
  const schema = z.string().transform((value, ctx) => {
    const delays = parseRetrySchedule(value);
    if (delays) return delays;
    ctx.issues.push({
      code: 'custom',
      message: `must be comma-separated seconds (0..${WEEK_SECONDS})`,
      input: value,
    });
    return z.NEVER;
  });
  return variable(schema.default(fallback), meaning, {
    type: 'seconds, comma-separated',
    default: shown(fallback.join(',')),
    ...doc,
  });
}

/** A value checked by a reader that throws a message naming the variable. */
function checkedBy<T>(read: (value: string) => T) {
  return z.string().transform((value, ctx) => {
    try {
      return read(value);
    } catch (error) {
      ctx.issues.push({ code: 'custom', message: (error as Error).message, input: value });
      return z.NEVER;
    }
  });
}

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

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const ICE_URL = /^(stun|stuns|turn|turns):[^\s/?#]+(\?transport=(udp|tcp))?$/i;

const MINUTE_MS = 60_000;

export const environmentSchema = z.object({
  // Server
  PORT: variable(wholeNumber(0, 65_535).default(8080), 'The port the server listens on (0: any free port).', {
    section: 'Server',
    type: 'whole number 0–65535',
    default: shown(8080),
  }),
  HOST: text('127.0.0.1', 'The address the server listens on; `0.0.0.0` for every interface.', {
    section: 'Server',
  }),
  NODE_ENV: optionalText(
    '`production` turns off the console mail, the dev endpoints and pretty logs; `development` (`npm run dev`) ' +
      'lets any loopback origin call the API.',
    { section: 'Server' },
  ),
  DATA_DIR: path('.data', 'The data folder: the embedded database, local storage and the kept JWT secret.', {
    section: 'Server',
    type: 'folder',
  }),
  DATABASE_URL: optionalText(
    'A PostgreSQL database (`postgres://…`); unset: the embedded PGlite in `DATA_DIR/pg`.',
    {
      section: 'Server',
      type: 'postgres:// address',
      secret: true,
    },
  ),
  PUBLIC_URL: variable(
    httpAddress.optional(),
    "The studio's address as browsers reach it: links in e-mails, signed storage links, allowed origin.",
    { section: 'Server', type: 'http(s) address', default: '`http://127.0.0.1:<PORT>`' },
  ),
  SECOND_REGION_URL: variable(
    httpAddress.optional(),
    "The second region's studio address (the region picker at sign-in); also an allowed origin.",
    { section: 'Server', type: 'http(s) address', default: '`http://localhost:<PORT>`' },
  ),
  STUDIO_ORIGINS: variable(
    checkedBy((value) =>
      commaSeparated.parse(value).map((address) => {
        if (!isHttpAddress(address)) throw new Error(`must hold http(s) addresses (${address} is not one)`);
        return new URL(address).origin;
      }),
    ).default([]),
    'Further origins whose browsers may call the API and open sockets, besides PUBLIC_URL and SECOND_REGION_URL.',
    { section: 'Server', type: 'http(s) addresses, comma-separated', default: 'none' },
  ),
  JWT_SECRET: optionalText(
    'The server secret: signs tokens and storage links, seals stored secrets. Every process of one ' +
      'deployment needs the same one.',
    {
      section: 'Server',
      default: 'generated at the first start and kept in `DATA_DIR/secret`',
      secret: true,
    },
  ),
  STUDIO_DIST: path('dist', "The studio's built files, served at `/`.", {
    section: 'Server',
    type: 'folder',
  }),
  TRUST_PROXY: variable(
    checkedBy(readTrustProxy).default([]),
    'Proxies trusted to report the client address in `X-Forwarded-For` (the IP allow-list reads it); unset: ' +
      "none, the connection's address is the client's.",
    { section: 'Server', type: 'addresses or CIDR ranges, comma-separated', default: 'none' },
  ),
  DEV_ENDPOINTS: optionalFlag(
    '`/api/dev/*` (the outbox listing, socket drops) for loopback callers. Refused with NODE_ENV=production.',
    { section: 'Server', default: 'on when HOST is loopback and NODE_ENV is not production' },
  ),
  REQUEST_TIMEOUT_MS: count(15 * MINUTE_MS, 'A whole request (a large upload) must arrive within this.', {
    section: 'Server',
  }),
  HEADERS_TIMEOUT_MS: count(
    10_000,
    "A request's headers must arrive within this (at most REQUEST_TIMEOUT_MS).",
    {
      section: 'Server',
    },
  ),
  IDLE_TIMEOUT_MS: count(
    28_000,
    "A connection with no byte in or out this long is closed; above socket.io's 25 s polling ping.",
    { section: 'Server' },
  ),
  SHUTDOWN_GRACE_MS: count(25_000, 'On SIGTERM, how long requests in flight (uploads) may take to finish.', {
    section: 'Server',
  }),

  // Logs and operations
  LOG_LEVEL: oneOf(LOG_LEVELS, 'info', 'The least level written to the log.', {
    section: 'Logs and operations',
  }),
  LOG_FORMAT: optionalOneOf(['json', 'pretty'], 'One JSON object per line, or pino-pretty for people.', {
    section: 'Logs and operations',
    default: '`pretty` on a terminal outside production, else `json`',
  }),
  SLOW_REQUEST_MS: count(
    2_000,
    'A request that takes longer than this many milliseconds is logged as a warning, with its route and the ' +
      'trace id of its `traceparent`, so a slow answer a user saw can be found.',
    { section: 'Logs and operations' },
  ),
  METRICS_TOKEN: optionalText('Bearer token of `GET /metrics` (Prometheus); unset: /metrics answers 404.', {
    section: 'Logs and operations',
    secret: true,
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable(
    httpAddress.optional(),
    'OpenTelemetry: the collector spans are sent to over OTLP/HTTP (protobuf; `/v1/traces` is added). Set, ' +
      'the server traces requests, queries, Redis commands and the call desk, and logs carry `trace_id`; ' +
      'unset, no tracing code is loaded. The SDK reads the other `OTEL_*` variables (headers, service ' +
      'name, sampler) itself (docs/operators/tracing.md).',
    { section: 'Logs and operations', type: 'http(s) address' },
  ),

  // Sign-in
  LOGIN_LIMIT_PER_ACCOUNT: count(
    10,
    'Failed sign-ins in a row of one account from one address before each further try waits a growing delay.',
    { section: 'Sign-in' },
  ),
  LOGIN_LIMIT_PER_ADDRESS: count(100, 'Failed sign-ins from one address within an hour.', {
    section: 'Sign-in',
  }),
  CODE_SEND_LIMIT_PER_EMAIL: count(5, 'E-mailed one-time codes sent per address in a minute.', {
    section: 'Sign-in',
  }),
  FACE_MATCH: oneOf(
    ['human', 'off'],
    'human',
    'Face comparison at photo sign-in: the local face-embedding model, or off (photo sign-in refused).',
    { section: 'Sign-in' },
  ),
  FACE_MATCH_MIN_SIMILARITY: variable(
    similarity(0.7),
    'The least similarity of two faces taken as the same person.',
    { section: 'Sign-in', type: 'number between 0 and 1', default: shown(0.7) },
  ),

  // Mail and text messages
  SMTP_URL: optionalText(
    'Send e-mail through this relay (`smtp://user:pass@host:587`, `smtps://…`); unset: outbox only.',
    {
      section: 'Mail and text messages',
      type: 'smtp(s):// address',
      secret: true,
    },
  ),
  MAIL_FROM: text('IDV Studio <no-reply@idv-studio.local>', 'The sender of e-mails.', {
    section: 'Mail and text messages',
  }),
  MAIL_PRODUCT_NAME: variable(
    z
      .string()
      .transform((value) => value.trim())
      .default('Verification Studio'),
    "The product's name in every e-mail.",
    { section: 'Mail and text messages', type: 'text', default: shown('Verification Studio') },
  ),
  MAIL_RETRY_SCHEDULE: retrySchedule(
    DEFAULT_MAIL_RETRY_SCHEDULE,
    'Delays before each retry of a message the relay did not take.',
    { section: 'Mail and text messages' },
  ),
  MAIL_POLL_MS: count(1_000, 'How often the mail worker looks for due mail when nothing wakes it sooner.', {
    section: 'Mail and text messages',
  }),
  MAIL_WORKER: flag(true, 'Run the mail worker in this process.', { section: 'Mail and text messages' }),
  TWILIO_ACCOUNT_SID: variable(
    z
      .string()
      .regex(/^AC[0-9a-zA-Z]{32}$/, 'must be an account SID (AC followed by 32 characters)')
      .optional(),
    'Send text messages through Twilio as well (with TWILIO_AUTH_TOKEN and TWILIO_FROM: all three or none); ' +
      'unset: the `sms_outbox` table only.',
    { section: 'Mail and text messages', type: 'Twilio account SID (`AC…`)' },
  ),
  TWILIO_AUTH_TOKEN: optionalText("Twilio's auth token.", {
    section: 'Mail and text messages',
    secret: true,
  }),
  TWILIO_FROM: variable(
    z
      .string()
      .regex(
        /^(\+[1-9]\d{6,14}|MG[0-9a-zA-Z]{32})$/,
        'must be a number in E.164 (+15005550006) or a Messaging Service SID (MG…)',
      )
      .optional(),
    'The sender of text messages.',
    { section: 'Mail and text messages', type: 'E.164 number or Messaging Service SID' },
  ),
  TWILIO_API_BASE: apiBase("Twilio's API address, for a fake of it.", { section: 'Mail and text messages' }),

  // Calls
  CALL_CUSTOMER_GRACE_MS: count(
    3_000,
    'A waiting customer whose socket is gone this long has left: the call is missed.',
    {
      section: 'Calls',
    },
  ),
  CALL_TALKING_CUSTOMER_GRACE_MS: count(
    RECONNECT_GRACE_MS + CUSTOMER_GRACE_MARGIN_MS,
    "A talking customer whose socket is gone this long has hung up (the customer's page gives up then too).",
    {
      section: 'Calls',
    },
  ),
  CALL_AGENT_GRACE_MS: count(
    15_000,
    'An agent with no socket this long goes Offline (a short drop keeps the status).',
    {
      section: 'Calls',
    },
  ),
  TURN_URLS: variable(
    checkedBy((value) =>
      commaSeparated.parse(value).map((url) => {
        if (!ICE_URL.test(url))
          throw new Error(
            `must hold stun:, turn: or turns: addresses (turn:host:3478?transport=udp); ${url} is not one`,
          );
        return url;
      }),
    ).default([]),
    'STUN and TURN servers given to call peers to find each other across networks.',
    { section: 'Calls', type: '`stun:`, `turn:`, `turns:` addresses, comma-separated', default: 'none' },
  ),
  TURN_SECRET: optionalText(
    "The secret shared with the TURN server (coturn's `static-auth-secret`) that per-call credentials are " +
      'minted from; needed with a `turn:` address.',
    { section: 'Calls', secret: true },
  ),
  TURN_CREDENTIAL_TTL_SECONDS: count(3_600, 'How long a minted TURN credential is valid.', {
    section: 'Calls',
  }),
  MACHINE_CHECKS: oneOf(
    ['on', 'off'],
    'on',
    "Machine checks beside the agent in a guided call: the face match and the document's MRZ read by OCR " +
      '(docs/users/machine-checks.md); off: no hints.',
    { section: 'Calls' },
  ),
  MACHINE_CHECK_FACE_THRESHOLD: variable(
    similarity(0.62),
    'The least similarity of the face screenshot and the ID portrait hinted as "likely the same person" ' +
      '(calibrated on the sample faces: docs/decisions/0209-machine-checks-beside-the-agent.md).',
    { section: 'Calls', type: 'number between 0 and 1', default: shown(0.62) },
  ),
  ICE_TRANSPORT_POLICY: oneOf(
    ['all', 'relay'],
    'all',
    'Whether calls use relayed paths alone by default (`relay` needs a `turn:` address; a company may ask it too).',
    { section: 'Calls' },
  ),

  // Limits
  COMPANY_STORAGE_QUOTA_GB: count(100, "A company's storage quota, in GiB.", { section: 'Limits' }),
  UPLOADS_PER_MINUTE: count(30, 'Uploads one user may start in a minute.', { section: 'Limits' }),
  UPLOADS_AT_ONCE: count(3, 'Uploads one user may have running at once.', { section: 'Limits' }),
  CALLS_PER_LINK_PER_HOUR: count(10, 'Calls created through one join link in an hour.', {
    section: 'Limits',
  }),
  CALLS_PER_ADDRESS_PER_HOUR: count(30, 'Calls created from one client address in an hour.', {
    section: 'Limits',
  }),
  LIST_COUNT_CAP: count(
    DEFAULT_COUNT_CAP,
    "Lists count rows exactly up to this many; above, they answer the planner's estimate and say so.",
    { section: 'Limits' },
  ),

  // Route rate limits
  PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE: count(
    30,
    'Passkey sign-in challenges asked per client address in a minute.',
    {
      section: 'Route rate limits',
    },
  ),
  PASSKEY_OPTIONS_PER_5_MINUTES: count(
    3_000,
    'Passkey challenges asked by everybody in 5 minutes (a challenge is stored that long).',
    { section: 'Route rate limits' },
  ),
  PASSKEY_SIGNINS_PER_ADDRESS_PER_MINUTE: count(
    30,
    'Passkey sign-ins (signature checks) per client address in a minute.',
    {
      section: 'Route rate limits',
    },
  ),
  EVIDENCE_PACKAGES_PER_USER_PER_MINUTE: count(
    10,
    'Evidence packages (ZIPs built per request) per user in a minute.',
    {
      section: 'Route rate limits',
    },
  ),
  EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE: count(30, 'Evidence packages per company in a minute.', {
    section: 'Route rate limits',
  }),
  WHISPERS_PER_USER_PER_MINUTE: count(
    20,
    'Whispers to agents per supervisor in a minute: each one lands on an agent in a live call.',
    {
      section: 'Route rate limits',
    },
  ),
  REPORTS_PER_USER_PER_MINUTE: count(
    30,
    'Statistics and exports over a range of days, per user in a minute.',
    {
      section: 'Route rate limits',
    },
  ),
  REPORTS_PER_COMPANY_PER_MINUTE: count(120, 'Statistics and exports per company in a minute.', {
    section: 'Route rate limits',
  }),
  OUTSIDE_CALLS_PER_USER_PER_MINUTE: count(
    20,
    'Requests that call a paid or slow service (summaries, AML screening, webhook tests), per user in a minute.',
    { section: 'Route rate limits' },
  ),
  OUTSIDE_CALLS_PER_COMPANY_PER_MINUTE: count(
    100,
    'Requests that call a paid or slow service, per company in a minute.',
    {
      section: 'Route rate limits',
    },
  ),

  // Webhooks
  WEBHOOK_RETRY_SCHEDULE: retrySchedule(
    DEFAULT_RETRY_SCHEDULE,
    'Delays before each retry of a failed delivery.',
    {
      section: 'Webhooks',
    },
  ),
  WEBHOOK_ALLOW_PRIVATE: flag(
    false,
    'Deliver to loopback, private and link-local addresses too (development, tests).',
    {
      section: 'Webhooks',
    },
  ),
  WEBHOOK_DISABLE_AFTER_SECONDS: count(
    5 * 86_400,
    'An endpoint failing every attempt this long is disabled.',
    {
      section: 'Webhooks',
    },
  ),
  WEBHOOK_POLL_MS: count(
    1_000,
    'How often the delivery worker looks for due work when nothing wakes it sooner.',
    {
      section: 'Webhooks',
    },
  ),
  WEBHOOK_WORKER: flag(true, 'Run the delivery worker in this process.', { section: 'Webhooks' }),

  // Distributed mode and storage
  REDIS_URL: optionalText(
    "Distributed mode: socket.io's Redis adapter, the shared call desk and shared limits.",
    {
      section: 'Distributed mode and storage',
      type: 'redis:// address',
      secret: true,
    },
  ),
  S3_BUCKET: optionalText(
    'Keep recordings and documents in this S3-compatible bucket instead of `DATA_DIR/storage`.',
    {
      section: 'Distributed mode and storage',
    },
  ),
  S3_ENDPOINT: optionalText('The address of an S3-compatible store (MinIO, s3rver); unset: AWS.', {
    section: 'Distributed mode and storage',
    type: 'http(s) address',
  }),
  S3_REGION: optionalText("The bucket's region.", {
    section: 'Distributed mode and storage',
    default: 'AWS_REGION, else `us-east-1`',
  }),
  AWS_REGION: optionalText('The region when S3_REGION is unset.', {
    section: 'Distributed mode and storage',
  }),
  S3_ACCESS_KEY_ID: optionalText("The store's access key; unset: the AWS SDK's default chain.", {
    section: 'Distributed mode and storage',
    default: 'AWS_ACCESS_KEY_ID',
  }),
  AWS_ACCESS_KEY_ID: optionalText('The access key when S3_ACCESS_KEY_ID is unset.', {
    section: 'Distributed mode and storage',
  }),
  S3_SECRET_ACCESS_KEY: optionalText("The store's secret key.", {
    section: 'Distributed mode and storage',
    default: 'AWS_SECRET_ACCESS_KEY',
    secret: true,
  }),
  AWS_SECRET_ACCESS_KEY: optionalText('The secret key when S3_SECRET_ACCESS_KEY is unset.', {
    section: 'Distributed mode and storage',
    secret: true,
  }),
  S3_FORCE_PATH_STYLE: optionalFlag(
    'Path-style addresses (`http://endpoint/bucket/key`), which most S3-compatible stores need.',
    {
      section: 'Distributed mode and storage',
      default: 'on when S3_ENDPOINT is set',
    },
  ),
  STORAGE_KEK: variable(
    checkedBy((value) => {
      readKekList(value);
      return value;
    }).optional(),
    'The key-encryption keys of stored files (docs/operators/encryption.md): each the base64 of 32 random ' +
      'bytes, comma-separated; the first wraps new files, the others stay readable for `npm run storage:rotate-key`.',
    {
      section: 'Distributed mode and storage',
      type: 'base64 keys, comma-separated',
      default: 'derived from JWT_SECRET',
      secret: true,
    },
  ),
  STORAGE_KEK_FILE: optionalPath(
    'A file holding the key-encryption keys instead of STORAGE_KEK (one a line, the first current; `#` comments).',
    { section: 'Distributed mode and storage', type: 'file path' },
  ),

  // Payments
  PAYMENT_SERVICE_URL: variable(
    httpAddress.optional(),
    'The local payment service (checkout pages, test cards).',
    {
      section: 'Payments',
      type: 'http(s) address',
      default: '`http://127.0.0.1:<PORT + 1000>`',
    },
  ),
  PAYMENT_API_KEY: optionalText("The merchant's secret API key at the payment service.", {
    section: 'Payments',
    default: 'derived from JWT_SECRET',
    secret: true,
  }),
  PAYMENT_WEBHOOK_SECRET: optionalText("Verifies the payment service's signed notifications (`whsec_…`).", {
    section: 'Payments',
    default: 'derived from JWT_SECRET',
    secret: true,
  }),
  PAYMENT_SESSION_TTL_SECONDS: count(30 * 60, 'How long a checkout session stays payable.', {
    section: 'Payments',
  }),
  STRIPE_SECRET_KEY: variable(
    z
      .string()
      .regex(
        /^(sk|rk)_(test|live)_\S+$/,
        'must be a secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)',
      )
      .optional(),
    'Stripe instead of the local payment service (with STRIPE_WEBHOOK_SECRET: both or neither).',
    { section: 'Payments', type: 'Stripe secret key', secret: true },
  ),
  STRIPE_WEBHOOK_SECRET: variable(
    z
      .string()
      .regex(/^whsec_\S+$/, 'must be an endpoint signing secret (whsec_…)')
      .optional(),
    "Verifies Stripe's signed notifications.",
    { section: 'Payments', type: 'Stripe signing secret', secret: true },
  ),
  STRIPE_API_BASE: apiBase("Stripe's API address, for a fake of it.", { section: 'Payments' }),

  // Evidence
  EVIDENCE_SIGNING_KEY: variable(
    checkedBy((value) => readEvidenceKey(value) as string).optional(),
    'The Ed25519 key that signs evidence manifests (PKCS#8 PEM, or the base64 of its DER).',
    {
      section: 'Evidence',
      type: 'PEM or base64 DER',
      default: 'generated once and kept in the database, sealed with JWT_SECRET',
      secret: true,
    },
  ),
  EVIDENCE_RETENTION_SWEEP_MS: wholeOrZero(
    3_600_000,
    'How often this process deletes evidence past its company’s retention period (0: never).',
    { section: 'Evidence' },
  ),
  ACCESS_LOG_FLUSH_MS: count(
    1_000,
    'How often this process writes the reads of personal data it noted (the access log) to the database.',
    { section: 'Evidence' },
  ),
  ACCESS_LOG_RETENTION_DAYS: count(
    1_825,
    'How many days the access log (who read which person’s data) is kept; older entries are pruned.',
    { section: 'Evidence' },
  ),
  ERASURE_SWEEP_MS: wholeOrZero(
    3_600_000,
    'How often this process carries out erasures whose retention has ended (0: never).',
    { section: 'Evidence' },
  ),

  // Screening and summaries
  AML_LIST_PATH: optionalPath('A full sanctions list file; unset: the bundled sample list.', {
    section: 'Screening and summaries',
    type: 'file path',
  }),
  AML_LIST_FORMAT: optionalOneOf(['opensanctions', 'ofac-sdn'], 'The format of AML_LIST_PATH.', {
    section: 'Screening and summaries',
  }),
  AML_MATCH_THRESHOLD: variable(
    wholeNumber(1, 100).default(85),
    'The least name-match score (1–100) reported as a hit.',
    { section: 'Screening and summaries', type: 'whole number 1–100', default: shown(85) },
  ),
  SUMMARISER_URL: optionalText(
    'A language-model endpoint (OpenAI-compatible chat completions) for profile summaries; unset: local rules.',
    { section: 'Screening and summaries', type: 'http(s) address' },
  ),
  SUMMARISER_MODEL: text('default', 'The model name sent to SUMMARISER_URL.', {
    section: 'Screening and summaries',
  }),
  SUMMARISER_API_KEY: optionalText('The bearer key of SUMMARISER_URL.', {
    section: 'Screening and summaries',
    secret: true,
  }),
});

export type Environment = z.output<typeof environmentSchema>;
export type VariableName = keyof typeof environmentSchema.shape;

/** What the reference and the error messages know of one variable. */
export function describeVariable(name: VariableName): VariableMeta & { description: string } {
  return z.globalRegistry.get(environmentSchema.shape[name]) as unknown as VariableMeta & {
    description: string;
  };
}

/**
 * The environment, parsed; unknown variables are ignored. A bad value stops the start with one line per
 * variable, naming it (and its value unless it is a secret).
 */
export function parseEnvironment(env: NodeJS.ProcessEnv): Environment {
  const parsed = environmentSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]) as VariableName;
    const message = issue.message.startsWith(name) ? issue.message : `${name} ${issue.message}`;
    return describeVariable(name).secret ? message : `${message}, got ${JSON.stringify(env[name])}`;
  });
  throw new Error(`Configuration: ${lines.join('; ')}`);
}
