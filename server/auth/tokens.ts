import { decodeJwt, jwtVerify, SignJWT } from 'jose';

/** Claims of the access token (the studio decodes them without verifying). */
export interface AccessClaims {
  user_id: number;
  company_id: number;
  email: string;
  is_api_user: boolean;
  /** The server-side session (the token's `jti`, server/domain/sessions.ts); a token without one is refused. */
  session_id: string;
}

export interface SocketClaims {
  user_id: number;
  company_id: number;
  /** The session the socket belongs to: ending it disconnects the socket. */
  session_id?: string;
}

/** The restricted token of a forced two-factor setup: only `otp_reset` and `otp_verify` accept it. */
export interface MfaSetupClaims {
  user_id: number;
  company_id: number;
}

/** The token of a customer's join link (POST /profile/url): one profile's call, nothing else. */
export interface CustomerClaims {
  profile_id: number;
  company_id: number;
}

/** The sign-up token: a verified e-mail's pending sign-up, before any company exists. */
export interface SignupClaims {
  signup_id: number;
  email: string;
}

type TokenUse = 'access' | 'socket' | 'mfa_setup' | 'customer' | 'signup';

export interface TokenService {
  signAccess(claims: AccessClaims): Promise<string>;
  verifyAccess(token: string): Promise<AccessClaims | null>;
  /** True for an access token of ours whose only fault is that it has expired. */
  accessExpired(token: string): Promise<boolean>;
  signSocket(claims: SocketClaims): Promise<string>;
  verifySocket(token: string): Promise<SocketClaims | null>;
  signMfaSetup(claims: MfaSetupClaims): Promise<string>;
  /** The claims and `issued_at` (milliseconds): a setup token issued before its user was disabled is refused. */
  verifyMfaSetup(token: string): Promise<(MfaSetupClaims & { issued_at: number }) | null>;
  signCustomer(claims: CustomerClaims, ttlSeconds: number): Promise<string>;
  verifyCustomer(token: string): Promise<CustomerClaims | null>;
  signSignup(claims: SignupClaims, ttlSeconds: number): Promise<string>;
  verifySignup(token: string): Promise<SignupClaims | null>;
}

export function createTokenService(options: {
  secret: string;
  accessTtlSeconds: number;
  socketTtlSeconds: number;
  /** Lifetime of the forced two-factor setup token (default 10 minutes). */
  mfaSetupTtlSeconds?: number;
}): TokenService {
  // Imported once: handing jose raw bytes makes it import the key again on every sign and verify.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(options.secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );

  const sign = async (claims: object, use: TokenUse, ttl: number, subject: string, jti?: string) => {
    const jwt = new SignJWT({ ...claims, token_type: use })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(`${ttl}s`)
      .setSubject(subject);
    if (jti) jwt.setJti(jti);
    return jwt.sign(await key);
  };
  const signUser = <C extends { user_id: number }>(claims: C, use: TokenUse, ttl: number, jti?: string) =>
    sign(claims, use, ttl, String(claims.user_id), jti);

  async function verify(
    token: string,
    use: TokenUse,
    idClaim: 'user_id' | 'profile_id' = 'user_id',
  ): Promise<Record<string, unknown> | null> {
    try {
      const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
      if (payload.token_type !== use) return null;
      if (typeof payload[idClaim] !== 'number' || typeof payload.company_id !== 'number') return null;
      return payload;
    } catch {
      return null;
    }
  }

  // Access tokens already verified, until they expire: the same string needs no second HMAC check.
  const verified = new Map<string, { claims: AccessClaims; expiresAt: number }>();

  return {
    signAccess: ({ session_id, ...claims }) =>
      signUser(claims, 'access', options.accessTtlSeconds, session_id),
    async verifyAccess(token) {
      const known = verified.get(token);
      if (known && known.expiresAt > Date.now()) return known.claims;
      const p = await verify(token, 'access');
      if (!p || typeof p.jti !== 'string' || !p.jti) return null;
      const claims: AccessClaims = {
        session_id: p.jti,
        user_id: p.user_id as number,
        company_id: p.company_id as number,
        email: String(p.email ?? ''),
        is_api_user: p.is_api_user === true,
      };
      if (verified.size >= 10_000) verified.clear();
      verified.set(token, { claims, expiresAt: Number(p.exp) * 1000 });
      return claims;
    },
    async accessExpired(token) {
      let exp: number | undefined;
      try {
        exp = decodeJwt(token).exp;
      } catch {
        return false;
      }
      if (typeof exp !== 'number' || exp * 1000 > Date.now()) return false;
      // Checked as of a second before it expired: the signature and the rest must hold.
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          currentDate: new Date((exp - 1) * 1000),
        });
        return payload.token_type === 'access';
      } catch {
        return false;
      }
    },
    signSocket: (claims) => signUser(claims, 'socket', options.socketTtlSeconds),
    async verifySocket(token) {
      const p = await verify(token, 'socket');
      if (!p) return null;
      const claims: SocketClaims = { user_id: p.user_id as number, company_id: p.company_id as number };
      if (typeof p.session_id === 'string') claims.session_id = p.session_id;
      return claims;
    },
    // `issued_ms`: when, to the millisecond (`iat` has whole seconds: a user disabled and enabled again within the
    // second of a new sign-in would find the new token refused).
    signMfaSetup: (claims) =>
      signUser(
        { ...claims, restricted: 'mfa_setup', issued_ms: Date.now() },
        'mfa_setup',
        options.mfaSetupTtlSeconds ?? 600,
      ),
    async verifyMfaSetup(token) {
      const p = await verify(token, 'mfa_setup');
      if (!p || typeof p.issued_ms !== 'number') return null;
      return { user_id: p.user_id as number, company_id: p.company_id as number, issued_at: p.issued_ms };
    },
    // A jti of its own: two links made in the same second are two links (one call per link at a time).
    signCustomer: (claims, ttlSeconds) =>
      sign(claims, 'customer', ttlSeconds, `profile:${claims.profile_id}`, crypto.randomUUID()),
    async verifyCustomer(token) {
      const p = await verify(token, 'customer', 'profile_id');
      return p ? { profile_id: p.profile_id as number, company_id: p.company_id as number } : null;
    },
    signSignup: (claims, ttlSeconds) => sign(claims, 'signup', ttlSeconds, `signup:${claims.signup_id}`),
    async verifySignup(token) {
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
        if (payload.token_type !== 'signup') return null;
        if (typeof payload.signup_id !== 'number' || typeof payload.email !== 'string') return null;
        return { signup_id: payload.signup_id, email: payload.email };
      } catch {
        return null;
      }
    },
  };
}
