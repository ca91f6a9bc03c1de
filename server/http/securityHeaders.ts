import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config';

/**
 * Security headers on every response (OWASP ASVS 4.0 V14.4, level 2),
 * docs/decisions/0056-security-headers-and-csp.md:
 * - helmet, registered before every other hook, sets the generic ones on each request: nosniff,
 *   `Referrer-Policy: no-referrer` (join-link and file-link addresses never leave in a Referer),
 *   `X-Frame-Options: DENY`, COOP, HSTS, Origin-Agent-Cluster and friends;
 * - this module's onSend hook sets what depends on the response: the Content-Security-Policy and the
 *   Permissions-Policy of an HTML document (the studio and the customer's join page, where calls happen:
 *   camera and microphone for this origin only) and the closed ones of everything else (API answers, files),
 *   and the Cross-Origin-Resource-Policy (stored files are embedded by the studio of the other region).
 */

/** `ws://` / `wss://` twin of an http(s) origin (socket.io of that region). */
const socketOrigin = (origin: string) => origin.replace(/^http/, 'ws');

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/** The CSP of the studio's and the join page's HTML: scripts only from this origin, no inline script. */
export function documentPolicy(
  config: Pick<ServerConfig, 'publicUrl' | 'secondRegionUrl' | 'payment'>,
): string {
  const regions = [config.publicUrl, config.secondRegionUrl]
    .map(originOf)
    .filter((o): o is string => o !== null);
  const unique = [...new Set(regions)];
  // The payment service's public reads (GET /config, GET /industry: countries and industries of sign-up).
  const paymentService = originOf(config.payment.serviceUrl);
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // The studio's modules and swagger-ui's bundle are files of this origin; nothing inline, no eval
    // (face matching runs on the server, so the browser needs no WebAssembly either).
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // Blueprint and swagger-ui position popovers and panels with style attributes.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Photos and recordings are signed addresses of either region; captures and previews are data:/blob:.
    'img-src': ["'self'", 'data:', 'blob:', ...unique],
    'media-src': ["'self'", 'blob:', 'mediastream:', ...unique],
    'font-src': ["'self'", 'data:'],
    // The API and socket.io of both regions (an account may live in the other region).
    'connect-src': [
      "'self'",
      ...unique,
      ...unique.map(socketOrigin),
      ...(paymentService && !unique.includes(paymentService) ? [paymentService] : []),
    ],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (config.publicUrl.startsWith('https:')) directives['upgrade-insecure-requests'] = [];
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');
}

/** Everything that is not an HTML document: nothing may run or load in it, nobody may frame it. */
export const RESOURCE_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
/** A stored file opened on its own (image, video, PDF): shown, never framed, nothing else loaded. */
export const FILE_POLICY =
  "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const CLOSED_FEATURES = [
  'accelerometer',
  'bluetooth',
  'browsing-topics',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'midi',
  'payment',
  'picture-in-picture',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
];

/**
 * Camera and microphone for this origin's own documents only (the studio is one SPA: its call desk, call
 * screen and sign-in photo all live in index.html; the join page is customer.html); fullscreen for the
 * call videos; everything else off.
 */
export const DOCUMENT_PERMISSIONS = [
  'camera=(self)',
  'microphone=(self)',
  'fullscreen=(self)',
  'autoplay=(self)',
  // Passkeys: WebAuthn in the studio's own documents, never in a frame.
  'publickey-credentials-create=(self)',
  'publickey-credentials-get=(self)',
  ...CLOSED_FEATURES.map((f) => `${f}=()`),
].join(', ');
/** API answers and files never use a device. */
export const RESOURCE_PERMISSIONS = [
  'camera=()',
  'microphone=()',
  'fullscreen=()',
  'autoplay=()',
  'publickey-credentials-create=()',
  'publickey-credentials-get=()',
  ...CLOSED_FEATURES.map((f) => `${f}=()`),
].join(', ');

/**
 * An HTML document: by its content type, or a 304 to a page request (a revalidated index.html has no
 * content type, yet browsers apply the 304's headers to the cached page).
 */
const isHtml = (request: FastifyRequest, reply: FastifyReply) =>
  String(reply.getHeader('content-type') ?? '').startsWith('text/html') ||
  (reply.statusCode === 304 && (request.headers.accept ?? '').includes('text/html'));

export async function installSecurityHeaders(app: FastifyInstance, config: ServerConfig): Promise<void> {
  await app.register(fastifyHelmet, {
    global: true,
    // Set per response below (HTML documents differ from API answers).
    contentSecurityPolicy: false,
    crossOriginResourcePolicy: false,
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
  });
  const documentCsp = documentPolicy(config);
  app.addHook('onSend', async (request, reply, payload) => {
    const html = isHtml(request, reply);
    const file = request.url.startsWith('/storage/');
    reply.header('content-security-policy', html ? documentCsp : file ? FILE_POLICY : RESOURCE_POLICY);
    reply.header('permissions-policy', html ? DOCUMENT_PERMISSIONS : RESOURCE_PERMISSIONS);
    reply.header('cross-origin-resource-policy', file ? 'cross-origin' : 'same-origin');
    // Helmet's headers are set on request; a reply that failed before helmet's hook still gets these.
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'no-referrer');
    return payload;
  });
}
