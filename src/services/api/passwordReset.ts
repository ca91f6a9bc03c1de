/** Password reset by e-mail code (user/reset_password/send and /submit, no authentication). */
import { studioConfig } from '../config';
import { publicApi } from './http';

type Options = { signal?: AbortSignal; server?: string };

/** Signed out there is no company server yet: the login host answers for it. */
const server = (given?: string) => given ?? studioConfig().loginHost;

export async function sendResetCode({ email }: { email: string }, options: Options = {}): Promise<void> {
  await publicApi(server(options.server)).post('user/reset_password/send', {
    json: { email },
    signal: options.signal,
  });
}

export async function submitReset(
  body: { email: string; otp: string; new_password: string },
  options: Options = {},
): Promise<void> {
  await publicApi(server(options.server)).post('user/reset_password/submit', {
    json: body,
    signal: options.signal,
  });
}
