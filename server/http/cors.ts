import type { ServerConfig } from '../config';

const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(\.\d{1,3}){3}|\[::1\])(:\d+)?$/;

/**
 * Origins whose browsers may call the API and open sockets: the studio addresses (PUBLIC_URL,
 * SECOND_REGION_URL, STUDIO_ORIGINS), and in development (`npm run dev`, NODE_ENV=development) any loopback one
 * (Vite). A request without an Origin is no browser's cross-origin request: it passes.
 */
export function corsOriginCheck(
  config: Pick<ServerConfig, 'studioOrigins' | 'allowLoopbackOrigins'>,
): (origin: string | undefined) => boolean {
  const allowed = new Set(config.studioOrigins);
  return (origin) =>
    origin === undefined ||
    allowed.has(origin) ||
    (config.allowLoopbackOrigins && LOOPBACK_ORIGIN.test(origin));
}
