import type { FastifyServerOptions } from 'fastify';
import type { ServerConfig } from '../config';

/**
 * Never logged: credentials in headers (tokens, cookies, passwords, payment signatures) and in bodies.
 * Request logs carry method, address without its query (signed file addresses and join tokens live there),
 * status and time.
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
  config: Pick<ServerConfig, 'logLevel' | 'logFormat'>,
): FastifyServerOptions['logger'] {
  const pretty = config.logFormat === 'pretty' && config.logLevel !== 'silent';
  return {
    level: config.logLevel,
    redact: { paths: REDACTED, censor: '[redacted]' },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: request.url.split('?')[0],
        remoteAddress: request.ip,
      }),
    },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}
