/**
 * Plan and payment: buying while a paid period runs says what is lost, kept and got, with the
 * plan's own numbers and dates, in both languages, and sends the confirmation the server asks for; an
 * abandoned checkout turns "Expired" on the screen when its time is up.
 */
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Package, Payment, Plan } from '#contract/payments';
import * as paymentsApi from '../../src/services/api/payments';
import { queryClient } from '../../src/ui/app/queryClient';
import { HistoryCard, untilFirstExpiry } from '../../src/ui/screens/payment/HistoryCard';
import { PackagesCard } from '../../src/ui/screens/payment/PackagesCard';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/payments', async (importOriginal) => ({
  ...(await importOriginal<typeof paymentsApi>()),
  buyPackage: vi.fn(),
  getPaymentHistory: vi.fn(),
}));
vi.mock('../../src/ui/app/useAccounts', () => ({
  useActiveAccount: () => ({ role: 'Admin', server: 'http://127.0.0.1' }),
}));
const api = vi.mocked(paymentsApi);

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces(['payment', 'signup']);
});
beforeEach(() => {
  vi.clearAllMocks();
  queryClient.clear();
  api.buyPackage.mockResolvedValue({
    session_id: 'cs_test_1',
    checkout_url: 'http://payment.test/checkout/cs_test_1',
    status: 'open',
    amount: 25_000,
    currency: 'EUR',
    expires_at: '2026-11-25T15:30:00.000Z',
  });
});
afterEach(async () => {
  vi.useRealTimers();
  await i18next.changeLanguage('en-US');
});

const pkg = (
  id: number,
  name: string,
  verifications: number,
  price: number,
  services: string[],
): Package => ({
  id,
  name,
  description: `${verifications} verifications a month`,
  verifications,
  price,
  currency: 'EUR',
  is_custom: false,
  services,
  period_days: 30,
});
const STARTER = pkg(1, 'Starter', 500, 25_000, ['verification', 'video_kyc']);
const GROWTH = pkg(2, 'Growth', 2000, 80_000, ['verification', 'aml', 'video_kyc']);

/** Growth, paid on Nov 5 for 30 days (until Dec 5), 234 of 2,000 verifications used; today is Nov 25. */
const RUNNING: Plan = {
  package: GROWTH,
  payment_status: 'paid',
  period_start: '2026-11-05T12:00:00.000Z',
  period_end: '2026-12-05T12:00:00.000Z',
  included_verifications: 2000,
  used_verifications: 234,
};

function Cards({ plan }: { plan: Plan | undefined }) {
  const packages = useQuery({ queryKey: ['test-packages'], queryFn: async () => [STARTER, GROWTH] });
  return <PackagesCard packages={packages} plan={plan} />;
}
const show = (plan: Plan | undefined) =>
  render(
    <QueryClientProvider client={queryClient}>
      <Cards plan={plan} />
    </QueryClientProvider>,
  );
const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

describe('buying while a paid period runs', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T12:00:00.000Z'));
  });

  it('says what is lost, kept and got, with the numbers and dates, and confirms the replacement (en-US)', async () => {
    show(RUNNING);
    const starter = await screen.findByTestId('package-1');
    // The card names the period once and lists the services, not the count a second time.
    expect(plain(starter.textContent)).toContain('€250.00per 30 days500 verifications');
    expect(starter).not.toHaveTextContent('a month');
    expect(within(starter).getByRole('list', { name: 'Includes' })).toHaveTextContent('Video calls');
    fireEvent.click(screen.getByRole('button', { name: 'Buy Starter' }));
    const dialog = await screen.findByRole('alertdialog');
    const text = plain(dialog.textContent);
    expect(text).toContain('Replace Growth with Starter?');
    expect(text).toContain(
      'Your Growth plan runs until Dec 5, 2026, with 1,766 of 2,000 verifications left.',
    );
    expect(text).toContain(
      'You lose: the 10 days and 1,766 verifications left in the current period. They are not refunded or carried over.',
    );
    expect(text).toContain('You keep: your customers, their data and every service switched on today.');
    expect(text).toContain(
      'You get: Starter with 500 verifications for 30 days from the payment (until about Dec 25, 2026), for €250.00.',
    );
    expect(text).toContain(
      'To switch without losing the rest of this period, buy Starter after Dec 5, 2026.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Replace my plan: go to checkout' }));
    await waitFor(() => expect(api.buyPackage).toHaveBeenCalledTimes(1));
    expect(api.buyPackage.mock.calls[0]?.[0]).toBe(1);
    expect(api.buyPackage.mock.calls[0]?.[3]).toMatchObject({ replaceCurrentPlan: true });
  });

  it('says the same in Turkish', async () => {
    await i18next.changeLanguage('tr');
    show(RUNNING);
    fireEvent.click(await screen.findByRole('button', { name: 'Starter satın al' }));
    const text = plain((await screen.findByRole('alertdialog')).textContent);
    expect(text).toContain('Growth yerine Starter geçsin mi?');
    expect(text).toContain(
      'Growth planınız 5 Ara 2026 tarihine kadar sürüyor; 2.000 doğrulamadan 1.766 tanesi kaldı.',
    );
    expect(text).toContain('Kaybedecekleriniz: geçerli dönemde kalan 10 gün ve 1.766 doğrulama.');
    expect(text).toContain('yaklaşık 25 Ara 2026 tarihine kadar');
    expect(missingKeys).toEqual([]);
  });

  it('buying with no running period asks as before and confirms no replacement', async () => {
    show({ ...RUNNING, period_end: '2026-11-20T12:00:00.000Z' });
    fireEvent.click(await screen.findByRole('button', { name: 'Buy Growth' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Buy Growth?');
    expect(dialog).not.toHaveTextContent('You lose');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go to checkout' }));
    await waitFor(() => expect(api.buyPackage).toHaveBeenCalledTimes(1));
    expect(api.buyPackage.mock.calls[0]?.[3]).toMatchObject({ replaceCurrentPlan: false });
  });
});

describe('an abandoned checkout', () => {
  const payment = (status: Payment['status'], expiresAt: string): Payment => ({
    id: 9,
    package: { id: 1, name: 'Starter' },
    amount: 25_000,
    currency: 'EUR',
    status,
    session_id: 'cs_test_9',
    created_at: '2026-11-25T11:30:00.000Z',
    expires_at: expiresAt,
    paid_at: null,
    receipt_number: null,
    receipt_url: null,
    refunded_amount: 0,
    refunded_at: null,
  });

  it('is read again when its time is up and shows "Expired"', async () => {
    const end = new Date(Date.now() + 200).toISOString();
    api.getPaymentHistory
      .mockResolvedValueOnce({ count: 1, next: null, previous: null, results: [payment('open', end)] })
      .mockResolvedValue({ count: 1, next: null, previous: null, results: [payment('expired', end)] });
    render(
      <QueryClientProvider client={queryClient}>
        <HistoryCard />
      </QueryClientProvider>,
    );
    const row = (await screen.findByRole('table', { name: 'Payment history' })).querySelector('tbody tr');
    expect(row).toHaveTextContent('Pending');
    expect(row).toHaveTextContent(/until \d{1,2}:\d{2}/);
    await waitFor(() => expect(screen.getByText('Expired')).toBeInTheDocument(), { timeout: 5000 });
  });

  it('shows a refund beside the paid status: its amount, or "in full"', async () => {
    const paid = { ...payment('paid', '2026-11-25T12:00:00.000Z'), paid_at: '2026-11-25T11:40:00.000Z' };
    api.getPaymentHistory.mockResolvedValue({
      count: 2,
      next: null,
      previous: null,
      results: [
        { ...paid, id: 10, refunded_amount: 5_000, refunded_at: '2026-11-26T09:00:00.000Z' },
        {
          ...paid,
          id: 11,
          session_id: 'cs_test_11',
          refunded_amount: 25_000,
          refunded_at: '2026-11-26T10:00:00.000Z',
        },
      ],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <HistoryCard />
      </QueryClientProvider>,
    );
    const rows = (await screen.findByRole('table', { name: 'Payment history' })).querySelectorAll('tbody tr');
    expect(rows[0]).toHaveTextContent('Paid');
    expect(rows[0]).toHaveTextContent('Refunded €50.00');
    expect(rows[1]).toHaveTextContent('Refunded in full');
  });

  it('waits until the first pending checkout ends, and not at all without one', () => {
    const now = Date.parse('2026-11-25T12:00:00.000Z');
    expect(untilFirstExpiry([payment('open', '2026-11-25T12:10:00.000Z')], now)).toBe(601_000);
    expect(untilFirstExpiry([payment('open', '2026-11-25T11:00:00.000Z')], now)).toBe(1000);
    expect(untilFirstExpiry([payment('expired', '2026-11-25T12:10:00.000Z')], now)).toBe(false);
    expect(untilFirstExpiry(undefined, now)).toBe(false);
  });
});
