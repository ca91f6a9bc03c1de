/**
 * /settings → Preferences → E-mail language (docs/decisions/0161-mail-templates.md): shows the server's value (none: the
 * company's), saves a choice with a success toast, and a refusal leaves the select as it was.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/users';
import { ApiError } from '../../src/services/api/http';
import * as usersApi from '../../src/services/api/users';
import { queryClient } from '../../src/ui/app/queryClient';
import { MailLanguageSelect } from '../../src/ui/screens/settings/MailLanguageSelect';
import { showError, showSuccess } from '../../src/ui/toaster';
import { adminAccount, storeAccounts } from '../support/accounts';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/users', async (importOriginal) => ({
  ...(await importOriginal<typeof usersApi>()),
  getUser: vi.fn(),
  updateUser: vi.fn(),
}));
const api = vi.mocked(usersApi);

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces('admin');
});
beforeEach(() => {
  vi.clearAllMocks();
  queryClient.clear();
  storeAccounts(localStorage, [adminAccount()]);
});

const user = (mail_language: User['mail_language']) => ({ id: 1, mail_language }) as User;
const show = () =>
  render(
    <QueryClientProvider client={queryClient}>
      <MailLanguageSelect />
    </QueryClientProvider>,
  );

describe('E-mail language select', () => {
  it('shows the company’s language when the user has none, and saves a choice', async () => {
    api.getUser.mockResolvedValue(user(null));
    api.updateUser.mockResolvedValue(user('tr'));
    show();
    const select = await screen.findByLabelText('E-mail language');
    expect(select).toHaveValue('');
    fireEvent.change(select, { target: { value: 'tr' } });
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith('E-mail language saved'));
    expect(api.updateUser).toHaveBeenCalledWith(1, { mail_language: 'tr' });
    await waitFor(() => expect(screen.getByLabelText('E-mail language')).toHaveValue('tr'));
    expect(missingKeys).toEqual([]);
  });

  it('the company’s language again is null; a refusal shows the detail and keeps the value', async () => {
    api.getUser.mockResolvedValue(user('en'));
    api.updateUser.mockRejectedValue(new ApiError(500, 'Remote Server Error'));
    show();
    fireEvent.change(await screen.findByLabelText('E-mail language'), { target: { value: '' } });
    await waitFor(() =>
      expect(showError).toHaveBeenCalledWith('The e-mail language could not be saved: Remote Server Error'),
    );
    expect(api.updateUser).toHaveBeenCalledWith(1, { mail_language: null });
    expect(screen.getByLabelText('E-mail language')).toHaveValue('en');
  });
});
