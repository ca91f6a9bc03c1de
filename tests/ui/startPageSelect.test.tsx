/**
 * /settings → Preferences → Start page: shown only to users who may open the desk; a choice
 * is saved on the server, then in the stored account (which `/` reads); a refusal leaves both as they were.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/users';
import { accounts } from '../../src/services/accounts';
import { ApiError } from '../../src/services/api/http';
import * as usersApi from '../../src/services/api/users';
import { queryClient } from '../../src/ui/app/queryClient';
import { StartPageSelect } from '../../src/ui/screens/settings/StartPageSelect';
import { showError, showSuccess } from '../../src/ui/toaster';
import { adminAccount, storeAccounts } from '../support/accounts';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/users', async (importOriginal) => ({
  ...(await importOriginal<typeof usersApi>()),
  updateUser: vi.fn(),
}));
const api = vi.mocked(usersApi);

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces('admin');
});
beforeEach(() => vi.clearAllMocks());

const reviewer = () => adminAccount({ role: 'User', permissions: ['review_profiles'], start_page: 'review' });
const answer = (start_page: User['start_page']) => ({ start_page }) as User;

describe.each([
  ['', false],
  [' (StrictMode)', true],
])('Start page select%s', (_, strict) => {
  const show = () => {
    const select = (
      <QueryClientProvider client={queryClient}>
        <StartPageSelect />
      </QueryClientProvider>
    );
    return render(strict ? <StrictMode>{select}</StrictMode> : select);
  };

  it('is not shown to a user who may not open the desk', () => {
    storeAccounts(localStorage, [adminAccount({ permissions: ['view_profiles_page'] })]);
    const { container } = show();
    expect(container).toBeEmptyDOMElement();
  });

  it('saves the choice on the server, then in the stored account, with a success toast', async () => {
    storeAccounts(localStorage, [reviewer()]);
    api.updateUser.mockResolvedValue(answer('customers'));
    show();
    const select = screen.getByLabelText('Start page');
    expect(select).toHaveValue('review');
    fireEvent.change(select, { target: { value: 'customers' } });
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('Start page saved: Customers'));
    expect(api.updateUser).toHaveBeenCalledWith(1, { start_page: 'customers' });
    expect(accounts.active()?.start_page).toBe('customers');
    await waitFor(() => expect(screen.getByLabelText('Start page')).toHaveValue('customers'));
    expect(screen.getByRole('option', { name: 'Review desk' })).toBeInTheDocument();
    expect(missingKeys).toEqual([]);
  });

  it("a refusal shows an error toast with the server's detail and changes nothing", async () => {
    storeAccounts(localStorage, [reviewer()]);
    api.updateUser.mockRejectedValue(new ApiError(500, 'Remote Server Error'));
    show();
    fireEvent.change(screen.getByLabelText('Start page'), { target: { value: 'customers' } });
    await waitFor(() =>
      expect(showError).toHaveBeenCalledWith('The start page could not be saved: Remote Server Error'),
    );
    expect(showSuccess).not.toHaveBeenCalled();
    expect(accounts.active()?.start_page).toBe('review');
    expect(screen.getByLabelText('Start page')).toHaveValue('review');
  });
});
