import { readFileSync } from 'node:fs';
import { register } from 'node:module';

/** What the process reports itself as, unless OTEL_SERVICE_NAME says otherwise. */
const SERVICE_NAME = 'idv-studio';

/** Requests too frequent and too dull to trace: probes and scrapes. */
const UNTRACED_PATHS = ['/healthz', '/readyz', '/metrics'];
/** socket.io's transport (long polls, upgrades): the socket layer's events have spans of their own. */
const SOCKET_PATH = '/socket.io/';

export interface Telemetry {
  /** Sends the spans still buffered, then stops exporting (a stopping process loses none). */
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /** The OTLP/HTTP base address (`…/v1/traces` is added), as OTEL_EXPORTER_OTLP_ENDPOINT gives it. */
  endpoint: string;
}

function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

const untraced = (path: string) =>
  path.startsWith(SOCKET_PATH) || UNTRACED_PATHS.some((p) => path === p || path.startsWith(`${p}?`));

/**
 * Starts OpenTelemetry's Node SDK: spans of incoming HTTP requests, fastify's routes and hooks, PostgreSQL
 * queries and Redis commands, exported over OTLP/HTTP (protobuf) to `endpoint`. It must run before fastify,
 * pg and ioredis are imported (server/main.ts imports the app after it): the instrumentations patch modules as
 * they load, through import-in-the-middle's loader hook for ES modules. Every import of the SDK is dynamic, so
 * a server started without an endpoint loads none of it (docs/operators/tracing.md).
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  // The loader hook only wraps the modules an instrumentation asked for (not every module of the app).
  const { createAddHookMessageChannel } = await import('import-in-the-middle');
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);

  const [
    { NodeSDK, resources },
    { OTLPTraceExporter },
    { HttpInstrumentation },
    { PgInstrumentation },
    { IORedisInstrumentation },
    { default: FastifyOtelInstrumentation },
  ] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
    import('@fastify/otel'),
  ]);

  const sdk = new NodeSDK({
    resource: resources.resourceFromAttributes({
      'service.name': SERVICE_NAME,
      'service.version': packageVersion(),
    }),
    traceExporter: new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }),
    // Traces only: metrics stay with Prometheus (/metrics) and logs with pino (they carry the trace id).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => untraced(request.url ?? ''),
      }),
      // Joins the HTTP server span (or the incoming `traceparent`) with a span for the route and one for its
      // handler; it registers itself on every fastify instance as it is created. No span per hook: the app has
      // a dozen, and their spans tripled a request's cost (`npm run bench:tracing`); the time between the
      // request's span and its handler's is theirs.
      new FastifyOtelInstrumentation({
        registerOnInitialization: true,
        instrumentHooks: false,
        ignorePaths: ({ url }: { url: string }) => untraced(url),
      }),
      // Queries and commands outside a request or a socket event (the workers' polls) would be traces of one span.
      new PgInstrumentation({ requireParentSpan: true }),
      new IORedisInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  // The batching processor sends what it holds when it shuts down.
  return { shutdown: () => sdk.shutdown() };
}
