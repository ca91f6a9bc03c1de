/** Signing in (on the login host) and loading the signed-in user into a stored account (docs/product/entities.md#account, docs/product/states.md#sign-in). */
import type { LoginResponse, LoginSuccess } from '#contract/auth';
import type { User } from '#contract/users';
import type { LoginRequest, SignedInAccount } from '../../machines/session.machine';
import { readTokenClaims } from '../../machines/tokenClaims';
import { ApiError, loginApi, publicApi } from './http';

type Options = { signal?: AbortSignal };

/** POST /api/v1/login/ — only the fields that have a value are sent. */
export function login(request: LoginRequest, { signal }: Options = {}): Promise<LoginResponse> {
  const json = Object.fromEntries(
    Object.entries(request).filter(([, value]) => value !== null && value !== ''),
  );
  return loginApi().post('login/', { json, signal, retry: 0 }).json<LoginResponse>();
}

/** Loads the user the new token belongs to (GET /user/{id}) and makes the account to store. */
export async function loadAccount(
  { login: answer, email }: { login: LoginSuccess; email: string },
  { signal }: Options = {},
): Promise<SignedInAccount> {
  const userId = readTokenClaims(answer.access)?.user_id;
  if (typeof userId !== 'number') throw new ApiError(0, 'Token is expired');
  const user = await publicApi(answer.server)
    .get(`user/${userId}`, { headers: { Authorization: `Bearer ${answer.access}` }, signal })
    .json<User>();
  return {
    id: user.id,
    email: user.username || email,
    access: answer.access,
    server: answer.server,
    company_id: answer.company_id,
    regions: answer.regions,
    permissions: user.permissions,
    role: user.role,
    name: `${user.first_name} ${user.last_name}`.trim(),
    start_page: user.start_page,
  };
}
