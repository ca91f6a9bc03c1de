/**
 * The countdown before an e-mailed code may be sent again, shared by the sign-up and the password reset: the
 * step waits (one `tick` a second brings `countdown` down to 0), then offers `code.resend`.
 *
 * A machine using it names three things in its `setup()`: `actors: { ticker }`, `guards: { canResend }` and
 * `actions: { countDown: assign(({ context }) => oneSecondLess(context)) }`. `resendCountdown()` refers to them by name, so its
 * sub-states are type-checked against that machine's own actors, guards, actions and events where they are
 * placed, and the machine's tests can still stub the `ticker` with `provide`.
 */
import { fromCallback } from 'xstate';

/** Seconds before the code may be sent again. */
export const RESEND_AFTER_SECONDS = 60;

interface CountdownContext {
  /** Seconds left before the code may be sent again. */
  countdown: number;
}

/** One `tick` a second. */
export const ticker = fromCallback<{ type: 'tick' }>(({ sendBack }) => {
  const timer = setInterval(() => sendBack({ type: 'tick' }), 1000);
  return () => clearInterval(timer);
});

export const canResend = ({ context }: { context: CountdownContext }) => context.countdown === 0;

/** The context change of one `tick`. */
export const oneSecondLess = (context: CountdownContext) => ({
  countdown: Math.max(0, context.countdown - 1),
});

/** The `waiting` → `resendable` sub-states; `code.resend` in `resendable` goes to `resendTarget`. */
export const resendCountdown = <Target extends string>(resendTarget: Target) =>
  ({
    initial: 'waiting',
    states: {
      waiting: {
        invoke: { id: 'ticker', src: 'ticker' },
        always: { guard: 'canResend', target: 'resendable' },
        on: { tick: { actions: 'countDown' } },
      },
      resendable: {
        on: { 'code.resend': { target: resendTarget } },
      },
    },
  }) as const;
