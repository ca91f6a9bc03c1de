import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BuyPackageReply, PaymentStatus, SessionStatus } from '#contract/payments';
import { paymentReturnMachine } from '../../../src/machines/paymentReturn.machine';

const session = (status: PaymentStatus, withPackage = true): SessionStatus => ({
  session_id: 'cs_test_1',
  status,
  provider_status: null,
  package: withPackage ? { id: 2, name: 'Growth' } : null,
  amount: 80_000,
  currency: 'EUR',
  expires_at: null,
  paid_at: null,
  receipt_number: status === 'paid' ? 'R-2026-000001' : null,
  receipt_url: null,
  decline_code: status === 'declined' ? 'card_declined' : null,
});

/** The machine with a scripted sequence of status answers (an Error answer is a failed request). */
function start(
  answers: (PaymentStatus | Error)[],
  options: { maxPolls?: number; buy?: () => Promise<BuyPackageReply> } = {},
) {
  const calls: string[] = [];
  const redirects: string[] = [];
  let planChanged = 0;
  const actor = createActor(
    paymentReturnMachine.provide({
      actors: {
        fetchStatus: fromPromise(async () => {
          const next = answers.shift() ?? 'open';
          calls.push(next instanceof Error ? 'error' : next);
          if (next instanceof Error) throw next;
          return session(next);
        }),
        startCheckout: fromPromise(
          options.buy ??
            (async () => ({
              session_id: 'cs_test_2',
              checkout_url: 'http://pay.test/checkout/cs_test_2',
              status: 'open' as const,
              amount: 80_000,
              currency: 'EUR',
              expires_at: '2026-01-01T00:00:00.000Z',
            })),
        ),
      },
      actions: {
        goToCheckout: (_, url: string) => void redirects.push(url),
        planChanged: () => {
          planChanged += 1;
        },
      },
    }),
    { input: { sessionId: 'cs_test_1', pollMs: 1, maxPolls: options.maxPolls ?? 3 } },
  ).start();
  return { actor, calls, redirects, planChanged: () => planChanged };
}

describe('paymentReturn machine', () => {
  it('shows paid at once and invalidates the plan', async () => {
    const { actor, planChanged } = start(['paid']);
    await waitFor(actor, (s) => s.matches('paid'));
    expect(actor.getSnapshot().context.session?.receipt_number).toBe('R-2026-000001');
    expect(planChanged()).toBe(1);
  });

  it('polls while open, and lands on paid when the notification arrived', async () => {
    const { actor, calls } = start(['open', 'open', 'paid']);
    await waitFor(actor, (s) => s.matches('paid'));
    expect(calls).toEqual(['open', 'open', 'paid']);
  });

  it('stops polling after maxPolls and checks again on request', async () => {
    const { actor, calls } = start(['open', 'open', 'open', 'open', 'declined']);
    await waitFor(actor, (s) => s.matches('pending'));
    expect(actor.getSnapshot().hasTag('pending')).toBe(true);
    expect(calls).toHaveLength(4);
    actor.send({ type: 'status.recheck' });
    await waitFor(actor, (s) => s.matches('declined'));
  });

  it('a declined checkout is tried again: a new session, and the browser goes there', async () => {
    const { actor, redirects } = start(['declined']);
    await waitFor(actor, (s) => s.matches('declined'));
    actor.send({ type: 'checkout.retried' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(redirects).toEqual(['http://pay.test/checkout/cs_test_2']);
  });

  it('a failed retry can be retried; an expired checkout too', async () => {
    let attempt = 0;
    const { actor, redirects } = start(['expired'], {
      buy: async () => {
        attempt += 1;
        if (attempt === 1) throw new Error('Remote Server Error');
        return {
          session_id: 'cs_test_3',
          checkout_url: 'http://pay.test/checkout/cs_test_3',
          status: 'open',
          amount: 80_000,
          currency: 'EUR',
          expires_at: '2026-01-01T00:00:00.000Z',
        };
      },
    });
    await waitFor(actor, (s) => s.matches('expired'));
    actor.send({ type: 'checkout.retried' });
    await waitFor(actor, (s) => s.matches('retryFailed'));
    expect(actor.getSnapshot().context.error).toBeInstanceOf(Error);
    actor.send({ type: 'checkout.retried' });
    await waitFor(actor, (s) => s.matches('redirecting'));
    expect(redirects).toEqual(['http://pay.test/checkout/cs_test_3']);
  });

  it('a failed first check offers a recheck', async () => {
    const { actor } = start([new Error('offline'), 'paid']);
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'status.recheck' });
    await waitFor(actor, (s) => s.matches('paid'));
  });
});
