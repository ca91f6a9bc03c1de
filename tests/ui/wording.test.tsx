/** The studio's wording: sentences that read as written by a person, in both languages. */
import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessEntity } from '#contract/entities';
import enCommon from '../../locales/en-US/common.json';
import enScreens from '../../locales/en-US/screens.json';
import trCommon from '../../locales/tr/common.json';
import trScreens from '../../locales/tr/screens.json';
import { findEntity } from '../../src/services/entities/sampleEntities';
import { switchLanguage } from '../../src/services/i18n';
import { App } from '../../src/ui/app/App';
import { NAV_AREAS } from '../../src/ui/app/areas';
import { AiAgentTab } from '../../src/ui/screens/entity/AiAgentTab';
import { missingKeys } from './setup';

const shannon = findEntity(11) as BusinessEntity;

beforeAll(async () => {
  await i18next.loadNamespaces(['entities', 'profile']);
});

afterEach(async () => {
  if (i18next.language !== 'en-US') await act(() => switchLanguage('en-US'));
});

describe('the entity summary names the status and the risk level in a sentence', () => {
  it('English', () => {
    render(<AiAgentTab entity={shannon} />);
    expect(
      screen.getByText(
        'Shannon Fintech Ltd has the status “Risk” and the risk level “Very High” (AML match).',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/is Risk with risk level/)).toBeNull();
    expect(missingKeys).toEqual([]);
  });

  it('Turkish', async () => {
    await act(() => switchLanguage('tr'));
    render(<AiAgentTab entity={shannon} />);
    expect(
      screen.getByText(
        'Shannon Fintech Ltd şirketinin durumu “Riskli”, risk seviyesi “Çok yüksek” (AML eşleşme).',
      ),
    ).toBeInTheDocument();
    expect(missingKeys).toEqual([]);
  });
});

describe('the Reports link and the page it opens carry one name (/reports → the landing page)', () => {
  it.each([
    ['en-US', enCommon, enScreens, 'Reports'],
    ['tr', trCommon, trScreens, 'Raporlar'],
  ])('%s', (_language, common, screens, name) => {
    const link = NAV_AREAS.find((area) => area.path === '/landing');
    expect(link?.label).toBe('nav.reports');
    expect(common.nav.reports).toBe(name);
    expect(screens.landing.title).toBe(name);
  });
});

describe('the invitation link opens "Set your password" with the one password rule', () => {
  const open = () => {
    window.history.replaceState(null, '', '/reset-password?email=new%40acme.test&code=123456');
    return render(<App />);
  };

  it('English', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Set your password' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Reset password' })).toBeNull();
    expect(screen.getByText('The password needs')).toBeInTheDocument();
    for (const rule of ['8 or more characters', 'an upper-case letter', 'a lower-case letter'])
      expect(screen.getByText(rule)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set password' })).toBeInTheDocument();
  });

  it('Turkish', async () => {
    await act(() => switchLanguage('tr'));
    open();
    expect(await screen.findByRole('heading', { name: 'Şifrenizi belirleyin' })).toBeInTheDocument();
    expect(screen.getByText('en az 8 karakter')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Şifreyi belirle' })).toBeInTheDocument();
    expect(missingKeys).toEqual([]);
  });
});
