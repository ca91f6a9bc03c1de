/**
 * The sign-in form draws before its session machine has loaded (`useSignInSession`; the wait itself is
 * signInSession.test.tsx's). A submit made between the machine's start and the screen's next render runs a handler
 * of the render before, which has no machine yet: it must reach the machine, or the form stays busy for good.
 */
import { act, renderHook } from '@testing-library/react';
import { StrictMode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../../src/machines/session.machine';
import { useSignInSession } from '../../src/ui/screens/auth/useSignInSession';

const received: SessionEvent[] = [];
const snapshot = { status: 'active', hasTag: () => false, matches: () => false, context: {} };

vi.mock('../../src/ui/screens/auth/signInSession', () => ({
  startSession: () => ({
    send: (event: SessionEvent) => received.push(event),
    subscribe: () => ({ unsubscribe: () => undefined }),
    getSnapshot: () => snapshot,
    stop: () => undefined,
  }),
}));

const SUBMIT: SessionEvent = {
  type: 'credentials.submitted',
  email: 'admin@acme.test',
  password: 'Admin@2026',
};

beforeEach(() => {
  received.length = 0;
});

describe.each([
  ['without StrictMode', undefined],
  ['in StrictMode', StrictMode],
])('the sign-in session (%s)', (_name, wrapper) => {
  it('sends a submit from a handler of the render before the machine ran, and is not left waiting', async () => {
    const { result } = renderHook(() => useSignInSession('', () => undefined), { wrapper });
    const sendOfFirstRender = result.current.send;
    await vi.waitFor(() => expect(result.current.state).not.toBeNull());
    act(() => sendOfFirstRender(SUBMIT));
    expect(received).toEqual([SUBMIT]);
    expect(result.current.waiting).toBe(false);
  });
});
