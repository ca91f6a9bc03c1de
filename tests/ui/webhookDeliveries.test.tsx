/**
 * The webhooks console's delivery log: moments in the studio's one format, delivery errors in
 * words with the raw text kept as a detail, and a retry that says so and lists its new attempt without a
 * manual refresh. Both languages.
 */
process.env.TZ = 'UTC';

import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebhookEndpoint, WebhookLog } from '#contract/webhooks';
import * as webhooksApi from '../../src/services/api/webhooks';
import { queryClient } from '../../src/ui/app/queryClient';
import { deliveryProblem } from '../../src/ui/screens/company/deliveryProblem';
import { EndpointDetail } from '../../src/ui/screens/company/EndpointDetail';
import { showSuccess } from '../../src/ui/toaster';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/webhooks', async (importOriginal) => ({
  ...(await importOriginal<typeof webhooksApi>()),
  listEndpointLogs: vi.fn(),
  retryDeliveries: vi.fn(),
}));
const api = vi.mocked(webhooksApi);

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces(['webhooks']);
});
beforeEach(() => {
  vi.clearAllMocks();
  queryClient.clear();
});
afterEach(async () => {
  await i18next.changeLanguage('en-US');
});

const TLS_ERROR =
  "ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames: Host: hooks.example.com. is not in the cert's list: ";

const endpoint: WebhookEndpoint = {
  id: 3,
  url: 'https://hooks.example.com/idv',
  description: '',
  enabled_events: [],
  is_active: true,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-01T09:00:00.000Z',
  health: { last_delivery_at: null, last_status: null, success_rate_24h: null, attempts_24h: 0, pending: 0 },
};
const attempt = (id: number, n: number, at: string, over: Partial<WebhookLog> = {}): WebhookLog => ({
  id,
  endpoint: 3,
  event: 'profile.status_changed',
  message_id: 'msg_1',
  url: endpoint.url,
  payload: { id: 1 },
  request_body: '{"id":1}',
  request_headers: { 'webhook-id': 'msg_1' },
  response_status: null,
  response_body: null,
  error: TLS_ERROR,
  success: false,
  attempt: n,
  duration_ms: 12,
  next_retry_at: null,
  created_at: at,
  ...over,
});
const FIRST = attempt(40, 1, '2026-11-25T14:58:48.000Z');
const RETRIED = attempt(41, 2, '2026-11-25T15:02:05.000Z', {
  error: null,
  response_status: 200,
  success: true,
});
const page = (...results: WebhookLog[]) => ({ results, has_more: false });
const show = () =>
  render(
    <QueryClientProvider client={queryClient}>
      <EndpointDetail endpoint={endpoint} isAdmin onClose={() => {}} />
    </QueryClientProvider>,
  );
const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

describe('the delivery log', () => {
  it('writes times as the rest of the studio and explains a TLS failure, keeping the raw text (en-US)', async () => {
    api.listEndpointLogs.mockResolvedValue(page(FIRST));
    show();
    const table = await screen.findByRole('table', { name: 'Delivery log' });
    const row = within(table).getAllByRole('row')[1];
    expect(plain(row?.textContent)).toContain('Nov 25, 2026, 2:58:48 PM');
    expect(plain(row?.textContent)).not.toContain('11/25/26');
    fireEvent.click(row as HTMLElement);
    const problem = await screen.findByTestId('delivery-problem');
    expect(problem).toHaveTextContent(
      "The endpoint's TLS certificate was not accepted: it does not match the address, has expired or is not signed by a trusted authority.",
    );
    expect(screen.getByText('Technical detail')).toBeInTheDocument();
    expect(screen.getByText(TLS_ERROR.trim())).toBeInTheDocument();
  });

  it('does the same in Turkish', async () => {
    await i18next.changeLanguage('tr');
    api.listEndpointLogs.mockResolvedValue(page(FIRST));
    show();
    const table = await screen.findByRole('table');
    const row = within(table).getAllByRole('row')[1];
    expect(plain(row?.textContent)).toContain('25 Kas 2026 14:58:48');
    fireEvent.click(row as HTMLElement);
    expect(await screen.findByTestId('delivery-problem')).toHaveTextContent(
      'Uç noktanın TLS sertifikası kabul edilmedi',
    );
    expect(screen.getByText('Teknik ayrıntı')).toBeInTheDocument();
    expect(missingKeys).toEqual([]);
  });

  it('after Retry says what happened and lists the new attempt without a manual refresh', async () => {
    // The worker sends the retried delivery a moment later: the first read after the retry has no new attempt.
    api.listEndpointLogs
      .mockResolvedValueOnce(page(FIRST))
      .mockResolvedValueOnce(page(FIRST))
      .mockResolvedValue(page(RETRIED, FIRST));
    api.retryDeliveries.mockResolvedValue(1);
    show();
    const table = await screen.findByRole('table', { name: 'Delivery log' });
    fireEvent.click(within(table).getAllByRole('row')[1] as HTMLElement);
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    });
    expect(api.retryDeliveries).toHaveBeenCalledWith([40]);
    expect(showSuccess).toHaveBeenCalledWith(
      '1 delivery queued again: its new attempt appears in the log in a moment',
    );
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3), { timeout: 5000 });
    expect(plain(within(table).getAllByRole('row')[1]?.textContent)).toContain('Nov 25, 2026, 3:02:05 PM');
  });
});

describe('delivery problems', () => {
  it.each([
    [TLS_ERROR, null, 'tls'],
    ['CERT_HAS_EXPIRED: certificate has expired', null, 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate', null, 'tls'],
    ['ENOTFOUND: getaddrinfo ENOTFOUND hooks.example.invalid', null, 'dns'],
    ['ECONNREFUSED: connect ECONNREFUSED 203.0.113.5:443', null, 'refused'],
    ['ECONNRESET: socket hang up', null, 'reset'],
    ['Timed out after 10000 ms', null, 'timeout'],
    ['EHOSTUNREACH: connect EHOSTUNREACH 203.0.113.5:443', null, 'unreachable'],
    ['The webhook address points to a private, loopback or link-local network', null, 'forbidden'],
    ['The endpoint is disabled', null, 'disabled'],
    [null, 301, 'redirect'],
    [null, 404, 'client'],
    [null, 503, 'server'],
    ['something new', null, 'other'],
  ] as const)('%s / %s is %s', (error, status, kind) => {
    expect(deliveryProblem(error, status, false)?.kind).toBe(kind);
  });

  it('a success has no problem', () => {
    expect(deliveryProblem(null, 200, true)).toBeNull();
  });
});
