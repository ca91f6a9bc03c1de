/** The IP allow-list tab: the lock-out warning, confirm_lockout only after the admin agrees, the server's error details. */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpAllowListEntry } from '#contract/ipAllowList';
import { ApiError } from '../../src/services/api/http';
import * as allowListApi from '../../src/services/api/ipAllowList';
import { queryClient } from '../../src/ui/app/queryClient';
import { AllowListTab } from '../../src/ui/screens/company/AllowListTab';
import { showError, showSuccess } from '../../src/ui/toaster';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/ipAllowList', async (importOriginal) => ({
  ...(await importOriginal<typeof allowListApi>()),
  listAllowList: vi.fn(),
  getMyAddress: vi.fn(),
  addAllowListEntry: vi.fn(),
  deleteAllowListEntry: vi.fn(),
}));
vi.mock('../../src/ui/app/useAccounts', () => ({ useActiveAccount: () => ({ role: 'Admin' }) }));

const api = vi.mocked(allowListApi);
const entry = (id: number, address: string): IpAllowListEntry => ({
  id,
  address,
  label: null,
  created_by: 1,
  created_by_name: 'Ada Admin',
  created_at: '2026-11-24T06:00:00.000Z',
});
const lockout = () =>
  new ApiError(409, 'This change would lock you out', {
    detail: 'This change would lock you out',
    address: '127.0.0.1',
  });

// Rendering the tab cold (Blueprint, icons) takes seconds on a loaded 2-core CI machine.
vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces(['allowlist', 'webhooks']);
});
beforeEach(() => {
  vi.clearAllMocks();
  api.getMyAddress.mockResolvedValue({ address: '127.0.0.1', allowed: true });
});

describe.each([
  ['', false],
  [' (StrictMode)', true],
])('IP allow-list tab%s', (_, strict) => {
  const show = () => {
    const tab = (
      <QueryClientProvider client={queryClient}>
        <AllowListTab />
      </QueryClientProvider>
    );
    render(strict ? <StrictMode>{tab}</StrictMode> : tab);
  };
  const type = (name: string | RegExp, value: string) =>
    fireEvent.change(screen.getByRole('textbox', { name }), { target: { value } });

  it('checks the address as the server does before sending anything', async () => {
    api.listAllowList.mockResolvedValue([]);
    show();
    expect(await screen.findByText('The list is empty')).toBeInTheDocument();
    expect(screen.getByTestId('allowlist-me')).toHaveTextContent('Your address: 127.0.0.1 allowed');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Enter an address or range')).toBeInTheDocument();
    type('Address or range', '10.0.0.0/33');
    expect(screen.getByText('The prefix length must be between 0 and 32')).toBeInTheDocument();
    type('Address or range', '192.168.1.1/24');
    expect(screen.getByText('This is not the start of its range: write 192.168.1.0/24')).toBeInTheDocument();
    expect(api.addAllowListEntry).not.toHaveBeenCalled();
  });

  it('warns on a 409, sends confirm_lockout only after the admin confirms, and reloads the list', async () => {
    api.listAllowList.mockResolvedValue([]);
    api.addAllowListEntry.mockRejectedValueOnce(lockout()).mockResolvedValueOnce(entry(7, '10.0.0.0/8'));
    show();
    await screen.findByText('The list is empty');
    type('Address or range', ' 10.0.0.0/8 ');
    type(/^Label/, 'VPN');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    const warning = await screen.findByTestId('allowlist-lockout');
    expect(warning).toHaveTextContent(
      'After adding 10.0.0.0/8, your address 127.0.0.1 would not be on the IP allow-list.',
    );
    expect(api.addAllowListEntry).toHaveBeenCalledTimes(1);
    expect(api.addAllowListEntry).toHaveBeenLastCalledWith({ address: ' 10.0.0.0/8 ', label: 'VPN' }, false);
    expect(showError).not.toHaveBeenCalled();
    const loads = api.listAllowList.mock.calls.length;
    fireEvent.click(screen.getByRole('button', { name: 'Add anyway' }));
    await waitFor(() => expect(api.addAllowListEntry).toHaveBeenCalledTimes(2));
    expect(api.addAllowListEntry).toHaveBeenLastCalledWith({ address: '10.0.0.0/8', label: 'VPN' }, true);
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('10.0.0.0/8 added to the IP allow-list'));
    await waitFor(() => expect(api.listAllowList.mock.calls.length).toBeGreaterThan(loads));
  });

  it('cancelling the warning sends nothing more and keeps what was typed', async () => {
    api.listAllowList.mockResolvedValue([]);
    api.addAllowListEntry.mockRejectedValueOnce(lockout());
    show();
    await screen.findByText('The list is empty');
    type('Address or range', '10.0.0.0/8');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await screen.findByTestId('allowlist-lockout');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('allowlist-lockout')).toBeNull());
    expect(api.addAllowListEntry).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('textbox', { name: 'Address or range' })).toHaveValue('10.0.0.0/8');
  });

  it("shows the server's detail of other failures, beside the field too", async () => {
    api.listAllowList.mockResolvedValue([]);
    const detail = '127.0.0.1 is already on the IP allow-list';
    api.addAllowListEntry.mockRejectedValueOnce(new ApiError(400, detail, { detail }));
    show();
    await screen.findByText('The list is empty');
    type('Address or range', '127.0.0.1');
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(showError).toHaveBeenCalledWith(detail));
    expect(await screen.findByText(detail)).toBeInTheDocument();
    expect(screen.queryByTestId('allowlist-lockout')).toBeNull();
  });

  it('deletes after a confirmation, and confirms a lock-out by the query flag', async () => {
    api.listAllowList.mockResolvedValue([entry(1, '127.0.0.1/32'), entry(2, '10.0.0.0/8')]);
    api.deleteAllowListEntry.mockRejectedValueOnce(lockout()).mockResolvedValueOnce();
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete 127.0.0.1/32' }));
    expect(await screen.findByText('Delete 127.0.0.1/32?')).toBeInTheDocument();
    expect(api.deleteAllowListEntry).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('allowlist-lockout')).toHaveTextContent(
      'After deleting 127.0.0.1/32, your address 127.0.0.1 would not be on the IP allow-list.',
    );
    expect(api.deleteAllowListEntry).toHaveBeenLastCalledWith(1, false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete anyway' }));
    await waitFor(() => expect(api.deleteAllowListEntry).toHaveBeenLastCalledWith(1, true));
    await waitFor(() =>
      expect(showSuccess).toHaveBeenCalledWith('127.0.0.1/32 deleted from the IP allow-list'),
    );
  });

  it('shows the error state with a retry', async () => {
    api.listAllowList.mockRejectedValue(new ApiError(500, 'Remote Server Error'));
    show();
    expect(await screen.findByText('The IP allow-list could not be loaded')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(missingKeys).toEqual([]);
  });
});
