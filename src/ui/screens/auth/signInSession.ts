/**
 * The sign-in's session machine with what it calls: the login host's API (and with it the HTTP client), the
 * account store. Nothing of it is needed to draw the sign-in form or to type in it, so the page loads it
 * after it has shown (`useSignInSession`).
 */
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from '../../../machines/session.machine';
import { accounts } from '../../../services/accounts';
import { loadAccount, login } from '../../../services/api/auth';
import { loginWithPasskey, passkeyAssertion } from '../../../services/api/passkeys';

/** The sign-in's session, started: `signedIn` runs once the account is stored. */
export function startSession(email: string, signedIn: () => void) {
  const machine = sessionMachine.provide({
    actors: {
      login: fromPromise(({ input, signal }) => login(input, { signal })),
      loadAccount: fromPromise(({ input, signal }) => loadAccount(input, { signal })),
      passkeyAssertion: fromPromise(({ signal }) => passkeyAssertion({ signal })),
      passkeyLogin: fromPromise(({ input, signal }) => loginWithPasskey(input, { signal })),
    },
    actions: {
      storeAccount: (_, account) => accounts.save(account),
      signedIn,
    },
  });
  return createActor(machine, { input: { email } }).start();
}

export type SessionActor = ReturnType<typeof startSession>;
