import type { FastifyServerOptions } from 'fastify';
import type { ServerConfig } from '../config';
import { activeTraceFields } from '../telemetry/spans';
import { requestLogSerializer } from './logRedaction';

/**
 * Never logged: credentials in headers (tokens, cookies, passwords, payment signatures) and in bodies.
 * Request logs carry method, address with credential query values redacted (logRedaction.ts), status and time.
 */
export const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-password"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'body.password',
  'body.token',
  'body.secret',
];

export function loggerOptions(
  config: Pick<ServerConfig, 'logLevel' | 'logFormat' | 'otlpEndpoint'>,
  /** Where the lines go instead of stdout (tests read them). */
  stream?: { write(line: string): void },
): FastifyServerOptions['logger'] {
  const pretty = config.logFormat === 'pretty' && config.logLevel !== 'silent';
  return {
    level: config.logLevel,
    redact: { paths: REDACTED, censor: '[redacted]' },
    // Join-link and file-link tokens never reach the log.
    serializers: { req: requestLogSerializer },
    // Traced: a line written while a span is active names its trace and span, so a trace's logs can be found.
    ...(config.otlpEndpoint ? { mixin: activeTraceFields } : {}),
    ...(stream ? { stream } : {}),
    ...(pretty && !stream
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
