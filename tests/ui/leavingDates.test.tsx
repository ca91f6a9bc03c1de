/**
 * A list's date filter steps aside while its screen is being left: the calendar's inputs give way to the same
 * dates as read-only fields as soon as a navigation to another screen starts (the calendar's popover, unmounted
 * with the list, would set state in the commit of the next screen and hold its first paint back), and come
 * back when the navigation ends on the list after all.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { NavigationRouter } from '../../src/ui/app/navigation';
import { DateRangeFilter } from '../../src/ui/components/ListFilters';

/** The preload of the navigation under way: it ends when the test says so. */
let endPreload: () => void = () => undefined;
vi.mock('../../src/ui/app/preload', () => ({
  preloadRoute: () =>
    new Promise<void>((resolve) => {
      endPreload = resolve;
    }),
}));

beforeAll(() => i18next.loadNamespaces(['translation', 'common']));
afterEach(() => window.history.replaceState(null, '', '/'));

const from = () => screen.getByLabelText('Created from') as HTMLInputElement;

it('shows the dates read-only while the list is left, and the calendar again when the list stays', async () => {
  window.history.replaceState(null, '', '/customers');
  render(
    <NavigationRouter>
      <DateRangeFilter
        from="2026-11-03"
        to=""
        labels={{ from: 'Created from', to: 'Created to', group: 'Created' }}
        onChange={() => undefined}
      />
    </NavigationRouter>,
  );
  // The calendar's chunk takes over from the read-only fields.
  await waitFor(() => expect(from()).not.toHaveAttribute('readonly'));
  const shown = from().value;
  expect(shown).not.toBe('');

  act(() => navigate('/profile/7'));
  await waitFor(() => expect(from()).toHaveAttribute('readonly'));
  expect(from().value).toBe(shown);
  expect(screen.getByLabelText('Created to')).toHaveAttribute('readonly');

  // Back to the list before the profile came: the navigation ends on the list, whose calendar returns.
  act(() => navigate('/customers'));
  await act(async () => endPreload());
  await waitFor(() => expect(from()).not.toHaveAttribute('readonly'));
  expect(from().value).toBe(shown);
});
