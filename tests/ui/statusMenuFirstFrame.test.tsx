/**
 * The profile's status button is drawn in the screen's first frame without its menu's popover (whose mounting
 * sets state synchronously); the popover takes it over one frame later: same markup, the focus kept, the menu
 * opening as before.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles';
import { queryClient } from '../../src/ui/app/queryClient';
import { StatusMenu } from '../../src/ui/screens/profile/StatusMenu';
import { useAfterFirstPaint } from '../../src/ui/screens/profile/useAfterFirstPaint';

const profile = {
  id: 7,
  name: 'Ayşe Yılmaz',
  status: 'Pending Review',
  version: 3,
  address: { province: null, city: null, street: null },
} as unknown as Profile;

// Loaded before: a namespace still loading would suspend the first render, and the frame would pass unseen.
beforeAll(() => i18next.loadNamespaces(['translation', 'profile', 'presence', 'calls', 'fields']));

/** What the button shows and says, with its wrapper (the icon's drawing comes when its chunk has loaded). */
const described = (button: HTMLElement) => ({
  wrapper: button.parentElement?.className,
  attributes: Object.fromEntries(button.getAttributeNames().map((name) => [name, button.getAttribute(name)])),
  text: button.textContent,
});

const statusButton = () => screen.getByRole('button', { name: 'Change status: Pending Review' });

describe('useAfterFirstPaint', () => {
  it('is false in the first render and true once a frame has passed, and stays true', async () => {
    const { result, rerender } = renderHook(() => useAfterFirstPaint());
    expect(result.current).toBe(false);
    await waitFor(() => expect(result.current).toBe(true));
    rerender();
    expect(result.current).toBe(true);
  });
});

describe('StatusMenu, first frame', () => {
  it('shows the same button before and after the popover takes it over, keeps its focus, and opens the menu', async () => {
    render(
      <QueryClientProvider client={queryClient}>
        <StatusMenu profile={profile} />
      </QueryClientProvider>,
    );
    const first = statusButton();
    const firstLook = described(first);
    expect(first).toHaveAttribute('aria-haspopup', 'menu');
    expect(first).toHaveAttribute('aria-expanded', 'false');
    first.focus();

    await waitFor(() => expect(statusButton()).not.toBe(first));
    const taken = statusButton();
    expect(described(taken)).toEqual(firstLook);
    expect(taken).toHaveFocus();

    fireEvent.click(taken);
    expect(await screen.findByRole('option', { name: 'Rejected' })).toBeVisible();
    expect(statusButton()).toHaveAttribute('aria-expanded', 'true');
  });
});
