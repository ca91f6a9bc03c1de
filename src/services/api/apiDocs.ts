/**
 * The API documentation screen (swagger-documentation): the server's OpenAPI document, read with the
 * studio's client, pointed at the active account's server, and the "try it" requests signed with the
 * active account's token (read at request time, so a switched account signs with its own).
 */
import { accounts } from '../accounts';
import { api } from './http';

type Options = { signal?: AbortSignal };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  servers?: { url: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export const apiDocsKeys = { document: (server: string) => ['openapi', server] as const };

const serverOf = () => (accounts.active()?.server ?? '').replace(/\/+$/, '');

/** The OpenAPI document with the active account's server as its only server (paths start with /api/…). */
export async function getOpenApiDocument({ signal }: Options = {}): Promise<OpenApiDocument> {
  const document = await api.get('openapi.json', { signal }).json<OpenApiDocument>();
  return { ...document, servers: [{ url: serverOf() }] };
}

/** A request the documentation viewer is about to send ("try it"). */
export interface TryRequest {
  url: string;
  headers: Record<string, string>;
  [key: string]: unknown;
}

/**
 * Signs "try it" requests to the active account's server with its bearer token; requests anywhere else are
 * left as they are (the token never leaves for another host).
 */
export function signTryRequest<R extends TryRequest>(request: R): R {
  const account = accounts.active();
  if (!account) return request;
  const server = account.server.replace(/\/+$/, '');
  const target = new URL(request.url, globalThis.location?.href);
  if (target.origin === new URL(server, globalThis.location?.href).origin && !request.headers.Authorization) {
    request.headers.Authorization = `Bearer ${account.access}`;
  }
  return request;
}
