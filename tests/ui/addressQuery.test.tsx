/**
 * A change of the address's query starts from the query in the address at that moment, not from the one of the
 * render its setter was made in: two filters picked in quick succession, with a render between them, kept only the
 * last one (the entities spec in CI).
 */
import { act, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { Router } from 'wouter';
import { type QueryChange, useAddressQuery } from '../../src/ui/app/useAddressQuery';

let changeQuery: ((change: QueryChange) => void) | undefined;

function Probe() {
  const [query, change] = useAddressQuery();
  changeQuery = change;
  return <output>{query.toString()}</output>;
}

afterEach(() => window.history.replaceState(null, '', '/'));

it('keeps a change the render has not shown yet', () => {
  window.history.replaceState(null, '', '/entities?status=Risk');
  render(
    <Router>
      <Probe />
    </Router>,
  );
  expect(screen.getByRole('status').textContent).toBe('status=Risk');
  const madeBefore = changeQuery;

  // An earlier change is in the address, and this setter was made before it was shown.
  window.history.replaceState(null, '', '/entities?status=Risk&type=jointStock');
  act(() =>
    madeBefore?.((current) => {
      current.set('risk', 'Normal');
      return current;
    }),
  );

  expect(window.location.pathname + window.location.search).toBe(
    '/entities?status=Risk&type=jointStock&risk=Normal',
  );
  expect(screen.getByRole('status').textContent).toBe('status=Risk&type=jointStock&risk=Normal');
});

it('replaces the history entry rather than adding one', () => {
  window.history.replaceState(null, '', '/customers');
  render(
    <Router>
      <Probe />
    </Router>,
  );
  const entries = window.history.length;
  act(() =>
    changeQuery?.((current) => {
      current.set('status', 'Approved');
      return current;
    }),
  );
  expect(window.location.search).toBe('?status=Approved');
  expect(window.history.length).toBe(entries);
});
