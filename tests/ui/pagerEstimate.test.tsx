/** The pager of a long list (docs/decisions/0164-keyset-lists.md): "about N" when the server estimated the count, in both languages. */
import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Pager } from '../../src/ui/components/Pager';
import { cursorFor, readView } from '../../src/ui/screens/customers/useListParams';

vi.setConfig({ testTimeout: 20_000 });
beforeAll(async () => {
  await i18next.loadNamespaces(['customers', 'common']);
});
afterAll(() => i18next.changeLanguage('en-US'));

const show = (estimated: boolean) =>
  render(
    <Pager
      count={1_234_567}
      estimated={estimated}
      page={1}
      size={20}
      sizes={[20, 50]}
      label="Customers"
      text={(key, values) => i18next.t(`customers:${key}`, { ...values })}
      onChange={() => {}}
    />,
  );

describe('Pager', () => {
  it('writes an estimated count as "about N", an exact one as the number', async () => {
    await i18next.changeLanguage('en-US');
    const { unmount } = show(true);
    expect(screen.getByRole('status')).toHaveTextContent('1–20 of about 1,234,567');
    unmount();
    show(false);
    expect(screen.getByRole('status')).toHaveTextContent(/^1–20 of 1,234,567$/);
  });

  it('says "yaklaşık N" in Turkish', async () => {
    await i18next.changeLanguage('tr');
    show(true);
    expect(screen.getByRole('status')).toHaveTextContent('yaklaşık 1.234.567 kayıttan 1–20');
  });
});

describe('the customers list’s cursor for a page', () => {
  const links = {
    next: 'http://studio.test/api/v2/profile?limit=20&offset=60&cursor=bmV4dA',
    previous: 'http://studio.test/api/v2/profile?limit=20&offset=20&cursor=cHJldg',
  };
  const view = readView(new URLSearchParams('page=3'));

  it('is the next or previous link’s cursor for an adjacent page, none for a jump', () => {
    expect(cursorFor(4, view, links)).toBe('bmV4dA');
    expect(cursorFor(2, view, links)).toBe('cHJldg');
    expect(cursorFor(7, view, links)).toBeUndefined();
    expect(
      cursorFor(1, view, { next: null, previous: 'http://studio.test/api/v2/profile?limit=20' }),
    ).toBeUndefined();
  });
});
