/**
 * Admin → Mail → Company e-mail language (docs/decisions/0161-mail-templates.md): shows the server's value, saves a choice with
 * a success toast, and a refusal shows its detail and leaves the select as it was.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/services/api/http';
import * as mailApi from '../../src/services/api/mail';
import { queryClient } from '../../src/ui/app/queryClient';
import { CompanyMailLanguageSelect } from '../../src/ui/screens/admin/CompanyMailLanguageSelect';
import { showError, showSuccess } from '../../src/ui/toaster';
import { missingKeys } from './setup';

vi.mock('../../src/services/api/mail', async (importOriginal) => ({
  ...(await importOriginal<typeof mailApi>()),
  getCompanyMailLanguage: vi.fn(),
  setCompanyMailLanguage: vi.fn(),
}));
const api = vi.mocked(mailApi);

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces('admin');
});
beforeEach(() => {
  vi.clearAllMocks();
  queryClient.clear();
});

const show = () =>
  render(
    <QueryClientProvider client={queryClient}>
      <CompanyMailLanguageSelect />
    </QueryClientProvider>,
  );

describe('Company e-mail language select', () => {
  it('shows the company’s language and saves a choice', async () => {
    api.getCompanyMailLanguage.mockResolvedValue({ mail_language: 'en' });
    api.setCompanyMailLanguage.mockResolvedValue({ mail_language: 'tr' });
    show();
    const select = await screen.findByLabelText('Company e-mail language');
    expect(select).toHaveValue('en');
    fireEvent.change(select, { target: { value: 'tr' } });
    await waitFor(() => expect(showSuccess).toHaveBeenCalledWith("The company's e-mail language is saved."));
    expect(api.setCompanyMailLanguage).toHaveBeenCalledWith({ mail_language: 'tr' });
    await waitFor(() => expect(screen.getByLabelText('Company e-mail language')).toHaveValue('tr'));
    expect(missingKeys).toEqual([]);
  });

  it('a refusal shows the detail and keeps the value', async () => {
    api.getCompanyMailLanguage.mockResolvedValue({ mail_language: 'tr' });
    api.setCompanyMailLanguage.mockRejectedValue(new ApiError(500, 'Remote Server Error'));
    show();
    fireEvent.change(await screen.findByLabelText('Company e-mail language'), { target: { value: 'en' } });
    await waitFor(() =>
      expect(showError).toHaveBeenCalledWith(
        "The company's e-mail language could not be saved: Remote Server Error",
      ),
    );
    expect(screen.getByLabelText('Company e-mail language')).toHaveValue('tr');
  });
});
