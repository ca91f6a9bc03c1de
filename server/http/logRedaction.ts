import type { FastifyRequest } from 'fastify';

/**
 * Query parameters that are credentials: a join link's `token` (customer.html?token=…), a file
 * link's `signature` (/storage/…?expires=…&signature=…), and any `access` or `code` a client might send.
 * The request logger never writes their values.
 */
const SECRET_PARAMS = new Set(['token', 'signature', 'access', 'access_token', 'code', 'otp']);
export const REDACTED = '[redacted]';

/** The address with the values of credential query parameters replaced (path and other parameters kept). */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent.
      }
      return eq >= 0 && SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

/** Fastify's request serializer (method, url, host, address), with credentials taken out of the url. */
export function requestLogSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
