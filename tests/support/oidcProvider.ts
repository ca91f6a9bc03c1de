/**
 * A real OpenID provider for the tests: the certified `oidc-provider` package in this process, on a free port of
 * 127.0.0.1, with its accounts and groups, a plain sign-in page, and RP-initiated logout. For the refusals it can
 * change the next ID token it issues (claims, or the key that signs it) and publish a new signing key, as a
 * misbehaving or rotating provider would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface OidcAccount {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  groups: string[];
}

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export interface OidcProviderFixture {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by subject: change their groups between sign-ins. */
  accounts: Map<string, OidcAccount>;
  /**
   * The next ID token leaves the token endpoint with `change` applied to its claims, signed again by the
   * provider's key, by `key: 'rotated'` (a new key it publishes first) or `key: 'foreign'` (one it never published).
   */
  tamperNext(
    change: (claims: Record<string, unknown>) => Record<string, unknown>,
    key?: 'own' | 'rotated' | 'foreign',
  ): void;
  /** Follows an authorization URL through the sign-in page as `login` (an e-mail); the URL it sends back to. */
  signIn(authorizationUrl: string, login: string): Promise<URL>;
  close(): Promise<void>;
}

async function signingKey(): Promise<SigningKey & { privateJwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  return {
    kid,
    privateKey: privateKey as CryptoKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' },
  };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The provider's sign-in page: one e-mail field, prefilled with the login hint. */
function page(uid: string, hint: string, problem = ''): string {
  return `<!doctype html><html lang="en"><head><title>Test identity provider</title></head><body>
<h1>Test identity provider</h1>${problem ? `<p role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
<label>Work e-mail <input name="login" type="email" value="${escapeHtml(hint)}" autocomplete="username"></label>
<button type="submit">Sign in at the identity provider</button></form></body></html>`;
}

export async function startOidcProvider(options: {
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  accounts: OidcAccount[];
  port?: number;
}): Promise<OidcProviderFixture> {
  const own = await signingKey();
  const rotated = await signingKey();
  const foreign = await signingKey();
  const published: JWK[] = [];
  const accounts = new Map(options.accounts.map((a) => [a.sub, { ...a }]));
  const clientId = 'idv-studio';
  const clientSecret = randomBytes(24).toString('base64url');
  let pending: { change: (c: Record<string, unknown>) => Record<string, unknown>; key: SigningKey } | null =
    null;

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [own.privateJwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
      groups: ['groups'],
    },
    // The claims of the granted scopes go into the ID token too, as Entra ID and Okta put them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      IdToken: 600,
      AccessToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        async claims() {
          const a = accounts.get(sub) ?? account;
          return { ...a, name: `${a.given_name} ${a.family_name}`, email_verified: true };
        },
      };
    },
  });

  // A new key the provider publishes beside its own (as a provider does before it signs with it).
  provider.use(async (ctx: { path: string; body: unknown }, next: () => Promise<void>) => {
    await next();
    if (ctx.path === '/jwks' && published.length > 0) {
      const body = ctx.body as { keys: JWK[] };
      ctx.body = { keys: [...body.keys, ...published] };
    }
    if (ctx.path === '/token' && pending) {
      const body = ctx.body as { id_token?: string };
      if (!body?.id_token) return;
      const { change, key } = pending;
      pending = null;
      const claims = change({ ...decodeJwt(body.id_token) });
      const header = decodeProtectedHeader(body.id_token);
      const idToken = await new SignJWT(claims)
        .setProtectedHeader({ ...header, alg: 'RS256', kid: key.kid })
        .sign(key.privateKey);
      ctx.body = { ...body, id_token: idToken };
    }
  });

  const handle = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const match = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!match) return handle(req, res);
    (async () => {
      const details = await provider.interactionDetails(req, res);
      const hint = String(details.params.login_hint ?? '');
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(page(details.uid, hint));
      }
      const login = (await readForm(req)).get('login')?.trim().toLowerCase() ?? '';
      const account = [...accounts.values()].find((a) => a.email.toLowerCase() === login);
      if (!account) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(page(details.uid, login, 'Unknown account'));
      }
      const grant = new provider.Grant({ accountId: account.sub, clientId: details.params.client_id });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: account.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamperNext(change, key = 'own') {
      if (key === 'rotated' && !published.some((k) => k.kid === rotated.kid))
        published.push(rotated.publicJwk);
      pending = { change, key: key === 'own' ? own : key === 'rotated' ? rotated : foreign };
    },
    async signIn(authorizationUrl, login) {
      const cookies = new Map<string, string>();
      let url = new URL(authorizationUrl);
      let form: URLSearchParams | undefined;
      for (let step = 0; step < 12; step++) {
        const response = await fetch(url, {
          method: form ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
            ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          body: form?.toString(),
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const at = pair?.indexOf('=') ?? -1;
          if (pair && at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
        await response.arrayBuffer();
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          const next = new URL(location, url);
          if (next.origin !== issuer) return next;
          url = next;
          form = undefined;
          continue;
        }
        if (url.pathname.startsWith('/interaction/') && !form) {
          form = new URLSearchParams({ login });
          continue;
        }
        throw new Error(`the provider answered ${response.status} at ${url.pathname}`);
      }
      throw new Error('the sign-in did not come back');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
