import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { App } from '../../src/ui/app/App';

/**
 * The sign-in's machine arrives when the test lets it (`arrive`), with a login that refuses the credentials
 * and records what it was sent.
 */
const session = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  return { arrive: () => arrive(), arrived, sent: [] as unknown[] };
});

vi.mock('../../src/ui/screens/auth/signInSession', async () => {
  await session.arrived;
  const { createActor, fromPromise } = await import('xstate');
  const { sessionMachine } = await import('../../src/machines/session.machine');
  return {
    startSession: (email: string, signedIn: () => void) =>
      createActor(
        sessionMachine.provide({
          actors: {
            login: fromPromise(async ({ input }) => {
              session.sent.push(input);
              throw { status: 401, detail: 'Invalid Credentials' };
            }),
          },
          actions: { signedIn },
        }),
        { input: { email } },
      ).start(),
  };
});

describe('the sign-in page before its machine has loaded', () => {
  it('draws the form and takes typing; a sign-in sent meanwhile waits for the machine, then goes', async () => {
    window.history.replaceState(null, '', '/login?email=agent%40acme.test');
    render(<App />);
    const password = await screen.findByLabelText('Password');
    expect(screen.getByLabelText('E-mail')).toHaveValue('agent@acme.test');

    await userEvent.type(password, 'Wrong-pass1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    // Waiting for the machine: busy as while the request runs, nothing sent yet.
    await waitFor(() => expect(screen.getByLabelText('E-mail')).toBeDisabled());
    expect(session.sent).toEqual([]);

    session.arrive();
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid Credentials');
    expect(session.sent).toEqual([
      expect.objectContaining({ username: 'agent@acme.test', password: 'Wrong-pass1' }),
    ]);
    expect(screen.getByLabelText('E-mail')).toBeEnabled();
    expect(screen.getByLabelText('E-mail')).toHaveValue('agent@acme.test');
  });
});
