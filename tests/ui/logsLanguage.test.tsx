/**
 * Logs in the reader's language: the same stored events read as sentences in en-US and
 * in tr, and the audit log's action filter is a list of named actions. Rendered against a local HTTP server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '#contract/audit';
import type { LogEntry } from '#contract/notes';
import { switchLanguage } from '../../src/services/i18n';
import { App } from '../../src/ui/app/App';
import { queryClient } from '../../src/ui/app/queryClient';
import { formatsFor } from '../../src/ui/format';
import { adminAccount, storeAccounts } from '../support/accounts';

let server: Server;
let origin = '';
const auditRequests: URLSearchParams[] = [];

const profile = {
  id: 1,
  id_card_number: '12345678901',
  name: 'Ayşe Yılmaz',
  gender: 'female',
  email: null,
  phone: null,
  nationality: 'TR',
  status: 'Pending Review',
  risk_level: 'High',
  source: 'studio',
  company: 1,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-02T10:00:00Z',
  last_status_date: null,
  date_of_birth: null,
  address: { province: null, city: null, street: null },
  extra_data: {},
  quality_check: null,
  aliases: [],
  risk_scores: null,
  reject_reason: null,
  summary: null,
};

const log = (id: number, action: string, data: Record<string, unknown>): LogEntry => ({
  id,
  action,
  message: 'English only',
  actor: { id: 1, name: 'Ada Admin' },
  data,
  created_at: '2026-11-02T10:00:00Z',
});
const logs = [
  log(4, 'status_changed', { from: 'Pending Review', to: 'Approved' }),
  log(3, 'checklist_answered', {
    question: 1,
    text: { 'en-US': 'Does the photo match the selfie?', tr: 'Fotoğraf özçekimle eşleşiyor mu?' },
    value: true,
  }),
  log(2, 'document_uploaded', { document_id: 9, document_class: 'PA', pages: 2, upload_source: 'studio' }),
  log(1, 'call_status_set', { call: 5, status: 3 }),
];
const audit: AuditEntry = {
  id: 1,
  created_at: '2026-11-02T10:00:00Z',
  actor: 1,
  actor_email: 'admin@acme.test',
  ip: '127.0.0.1',
  object_type: 'profile',
  object_id: '1',
  action: 'status_changed',
  before: { status: 'Pending Review' },
  after: { status: 'Approved' },
};

/** A profile nobody asked to erase, as the server answers it. */
const NOT_ERASED = {
  status: 'none',
  requested_at: null,
  requested_by: null,
  reason: null,
  completed_at: null,
  retained: [],
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '', 'http://x');
    const path = url.pathname;
    if (path === '/api/v2/audit') auditRequests.push(url.searchParams);
    const body =
      path === '/api/v2/profile/1'
        ? profile
        : path === '/api/v2/company/1/config/app'
          ? { aml_provider: null, active_services: [] }
          : path.endsWith('/logs')
            ? { results: logs, has_more: false }
            : path === '/api/v2/audit'
              ? { count: 1, next: null, previous: null, results: [audit] }
              : path === '/api/v2/user'
                ? { count: 0, next: null, previous: null, results: [] }
                : path.endsWith('/nvi')
                  ? { id: 1, extra_data: {} }
                  : path.endsWith('/erasure')
                    ? NOT_ERASED
                    : [];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(async () => {
  queryClient.clear();
  if (i18next.language !== 'en-US') await act(() => switchLanguage('en-US'));
});

const plain = (text: string | null) => (text ?? '').replace(/[\u202f\u00a0]/g, ' ');

function open(path: string) {
  storeAccounts(localStorage, [adminAccount({ server: origin })]);
  window.history.replaceState(null, '', path);
  return render(<App />);
}

const logLines = async () => {
  const list = await screen.findByRole('list', { name: /Logs|Kayıtlar|Günlük/ });
  await within(list).findAllByRole('listitem');
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.firstElementChild?.textContent ?? '');
};

describe('profile logs in the reader’s language', () => {
  it('renders the same stored events as English and as Turkish sentences', async () => {
    const view = open('/profile/1');
    expect(await logLines()).toEqual([
      'Status changed from Pending Review to Approved',
      'Checklist answered: Does the photo match the selfie? (yes)',
      'Passport #9 uploaded from the studio (2 pages)',
      'Video call #5 status: Complete',
    ]);
    await act(() => switchLanguage('tr'));
    await waitFor(async () =>
      expect(await logLines()).toEqual([
        'Durum İnceleme bekleniyor iken Onaylandı oldu',
        'Kontrol listesi yanıtlandı: Fotoğraf özçekimle eşleşiyor mu? (evet)',
        'Pasaport #9 stüdyo üzerinden yüklendi (2 sayfa)',
        '#5 numaralı görüntülü görüşmenin durumu: Tamamlandı',
      ]),
    );
    view.unmount();
  });
});

describe('the audit log', () => {
  it('filters by a named action from a list and shows actions and changes in the reader’s language', async () => {
    const view = open('/admin?tab=audit');
    const filter = (await screen.findByRole('combobox', { name: 'Action' })) as HTMLSelectElement;
    const names = [...filter.options].map((o) => o.textContent);
    expect(names[0]).toBe('All actions');
    expect(names).toEqual(
      expect.arrayContaining(['User disabled', 'Profile status changed', 'Document rejected']),
    );
    fireEvent.change(filter, { target: { value: 'status_changed' } });
    await waitFor(() => expect(auditRequests.at(-1)?.get('action')).toBe('status_changed'));
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByText('Profile status changed')).toBeInTheDocument();
    expect(within(table).getByText('Status: Pending Review → Approved')).toBeInTheDocument();
    // Its moments are written as every other screen writes them (the webhook deliveries too).
    expect(plain(table.textContent)).toContain(formatsFor('en-US').moment(audit.created_at));
    expect(plain(table.textContent)).toMatch(/Nov 2, 2026, \d{1,2}:00:00 [AP]M/);

    // Choosing an object type offers only its actions.
    fireEvent.change(screen.getByRole('combobox', { name: 'Object' }), { target: { value: 'user' } });
    await waitFor(() => expect([...filter.options].map((o) => o.value)).not.toContain('status_changed'));
    expect([...filter.options].map((o) => o.value)).toContain('user_disabled');

    await act(() => switchLanguage('tr'));
    const trTable = await screen.findByRole('table', { name: 'Denetim kaydı' });
    expect(await within(trTable).findByText('Durum: İnceleme bekleniyor → Onaylandı')).toBeInTheDocument();
    expect(plain(trTable.textContent)).toMatch(/2 Kas 2026 \d{2}:00:00/);
    expect(screen.getByRole('combobox', { name: 'İşlem' })).toBeInTheDocument();
    view.unmount();
  });
});
