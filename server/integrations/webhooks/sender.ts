import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { FORBIDDEN_TARGET, guardedLookup, isForbiddenAddress } from './ssrf';

export interface SendResult {
  status: number | null;
  /** The first RESPONSE_EXCERPT characters of the answer. */
  body: string | null;
  headers: Record<string, string | string[] | undefined>;
  durationMs: number;
  /** Set when no answer came: time-out, refused address, network error. */
  error: string | null;
}

export const RESPONSE_EXCERPT = 2_000;

/**
 * Connections to receivers stay open between deliveries (keep-alive): a burst to one endpoint reuses a few
 * sockets instead of opening (and, over TLS, shaking hands on) one per delivery.
 */
const agents = {
  'http:': new HttpAgent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 64 }),
  'https:': new HttpsAgent({ keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 64 }),
};
const MAX_READ = 64 * 1024;

/**
 * One POST. No redirect is followed (a 3xx is the answer), the whole attempt is bounded by `timeoutMs`,
 * and unless `allowPrivate` every address is checked by the SSRF guard after DNS resolution.
 */
export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      resolve({ status: null, body: null, headers: {}, durationMs: 0, error: 'Invalid URL' });
      return;
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!options.allowPrivate && isIP(host) && isForbiddenAddress(host)) {
      resolve({ status: null, body: null, headers: {}, durationMs: 0, error: FORBIDDEN_TARGET });
      return;
    }
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const requestFn = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = requestFn(
      target,
      {
        method: 'POST',
        agent: target.protocol === 'https:' ? agents['https:'] : agents['http:'],
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'IDV-Studio-Webhooks/1',
        },
        ...(options.allowPrivate ? {} : { lookup: guardedLookup }),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < MAX_READ) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          finish({
            status: res.statusCode ?? null,
            body: Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT),
            headers: res.headers,
            error: null,
          }),
        );
        res.on('error', (error) => finish({ status: null, body: null, headers: {}, error: error.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ status: null, body: null, headers: {}, error: `Timed out after ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        status: null,
        body: null,
        headers: {},
        error:
          error.code === 'EWEBHOOKFORBIDDEN'
            ? FORBIDDEN_TARGET
            : error.code
              ? `${error.code}: ${error.message}`
              : error.message,
      }),
    );
    req.end(body);
  });
}
