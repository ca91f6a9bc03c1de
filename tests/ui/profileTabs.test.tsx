/** Tab gating of the profile screen per service set, rendered against a real local HTTP server. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { render, screen, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyConfig } from '#contract/companies';
import { App } from '../../src/ui/app/App';
import { queryClient } from '../../src/ui/app/queryClient';
import { adminAccount, storeAccounts } from '../support/accounts';

let server: Server;
let origin = '';
let config: CompanyConfig = { aml_provider: null, active_services: [] };

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

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const body =
      path === '/api/v2/profile/1'
        ? profile
        : path === '/api/v2/company/1/config/app'
          ? config
          : path.endsWith('/logs')
            ? { results: [], has_more: false }
            : path.endsWith('/nvi')
              ? { id: 1, extra_data: {} }
              : [];
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function tabsFor(given: CompanyConfig): Promise<string[]> {
  config = given;
  storeAccounts(localStorage, [adminAccount({ server: origin })]);
  window.history.replaceState(null, '', '/profile/1');
  const view = render(<App />);
  const list = await screen.findByRole('tablist');
  const names = within(list)
    .getAllByRole('tab')
    .map((tab) => tab.textContent ?? '');
  view.unmount();
  queryClient.clear();
  return names;
}

// Signed in as an Admin: the last tab, who viewed the profile, is the Admins' whatever the services.
describe('profile tabs per service set', () => {
  it('every tab with every service and an AML provider', async () => {
    expect(
      await tabsFor({
        aml_provider: 'Lists',
        active_services: [
          'verification',
          'ai_agent',
          'aml',
          'video_kyc',
          'transactions',
          'questionnaire',
          'biopay',
        ],
      }),
    ).toEqual([
      'Profile Info',
      'Verification Steps',
      'AI Agent',
      'Documents',
      'AML & Adverse Media',
      'Video Calls',
      'Transactions',
      'Questionnaires',
      'Viewed by',
    ]);
  });

  it('only the tabs without a service when none is on', async () => {
    expect(await tabsFor({ aml_provider: null, active_services: [] })).toEqual([
      'Profile Info',
      'AI Agent',
      'Documents',
      'Viewed by',
    ]);
  });

  it('no AML tab without a provider, even with the service', async () => {
    expect(await tabsFor({ aml_provider: null, active_services: ['aml', 'video_kyc'] })).toEqual([
      'Profile Info',
      'AI Agent',
      'Documents',
      'Video Calls',
      'Viewed by',
    ]);
  });
});
