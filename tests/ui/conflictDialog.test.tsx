/** The conflict dialog and its hook: a 409 opens it over the form; apply again or discard. */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import { StrictMode, useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Profile } from '#contract/profiles';
import { PROFILE_FIELDS } from '../../src/machines/versionConflict';
import { ApiError } from '../../src/services/api/http';
import { ConflictDialog } from '../../src/ui/components/ConflictDialog';
import { useConflict, type VersionedWrite } from '../../src/ui/components/useConflict';
import { missingKeys } from './setup';

const seen = {
  name: 'Ayşe Yılmaz',
  phone: '+90 555 111 2233',
  address: { province: null, city: null, street: null },
  status: 'Pending Review',
  version: 3,
} as unknown as Profile;
const now = { ...seen, status: 'Pending Approval', version: 4 } as Profile;
const conflict = new ApiError(409, 'Changed by someone else meanwhile', {
  detail: 'Changed by someone else meanwhile',
  current: now,
});

function Harness({
  write,
  onApplied,
  onDiscarded,
}: {
  write: VersionedWrite;
  onApplied: () => void;
  onDiscarded: () => void;
}) {
  const [phone, setPhone] = useState(seen.phone ?? '');
  const { attempt, dialog } = useConflict(PROFILE_FIELDS, { onDiscarded, onError: () => {} });
  return (
    <>
      <label>
        Phone
        <input value={phone} onChange={(event) => setPhone(event.currentTarget.value)} />
      </label>
      <button type="button" onClick={() => void attempt(seen, { phone }, write, onApplied)}>
        Save
      </button>
      <ConflictDialog {...dialog} subject="This profile" />
    </>
  );
}

beforeAll(async () => {
  await i18next.loadNamespaces('presence');
});

describe.each([
  ['plain', false],
  ['StrictMode', true],
])('conflict dialog (%s)', (_, strict) => {
  const mount = (props: Parameters<typeof Harness>[0]) =>
    render(strict ? <StrictMode>{<Harness {...props} />}</StrictMode> : <Harness {...props} />);

  it('shows what changed meanwhile, keeps the typed value, and applies it again with the new version', async () => {
    const write = vi.fn<VersionedWrite>().mockRejectedValueOnce(conflict).mockResolvedValueOnce({});
    const onApplied = vi.fn();
    mount({ write, onApplied, onDiscarded: vi.fn() });
    fireEvent.change(screen.getByLabelText('Phone'), { target: { value: '+90 532 000 0000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Changed by someone else meanwhile' });
    const row = within(dialog).getByRole('row', { name: /Status/ });
    expect(row).toHaveTextContent('Pending Review');
    expect(row).toHaveTextContent('Pending Approval');
    expect(row).toHaveTextContent('not changed by you');
    expect(screen.getByLabelText('Phone')).toHaveValue('+90 532 000 0000');
    expect(write).toHaveBeenLastCalledWith(3, false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply my change again' }));
    await waitFor(() => expect(onApplied).toHaveBeenCalledTimes(1));
    expect(write).toHaveBeenLastCalledWith(4, true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(missingKeys).toEqual([]);
  });

  it('discarding closes it and lets the caller reload; nothing is sent again', async () => {
    const write = vi.fn<VersionedWrite>().mockRejectedValueOnce(conflict);
    const onDiscarded = vi.fn();
    mount({ write, onApplied: vi.fn(), onDiscarded });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: 'Changed by someone else meanwhile' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Discard my change' }));
    expect(onDiscarded).toHaveBeenCalledTimes(1);
    expect(write).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
