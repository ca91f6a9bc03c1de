/**
 * The admin screen's dialogs: the user form's checks (docs/product/validation.md) and values, the group form.
 */
import { fireEvent, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { User } from '#contract/users';
import { UserDialog } from '../../src/ui/screens/admin/UserDialog';
import { missingKeys } from './setup';

beforeAll(async () => {
  await i18next.loadNamespaces('admin');
});

const groups = [
  { id: 1, name: 'Reviewers', permissions: [] },
  { id: 2, name: 'Supervisors', permissions: [] },
];

const user: User = {
  id: 5,
  first_name: 'Umut',
  last_name: 'Agent',
  username: 'agent@acme.test',
  phone: null,
  photo: null,
  groups: [{ id: 1, name: 'Reviewers' }],
  is_superuser: false,
  is_staff: false,
  mfa: false,
  company: 1,
  permissions: [],
  role: 'User',
  is_active: true,
  last_login: null,
  force_password_reset: false,
  force_mfa_reset: false,
  languages: [],
  start_page: 'customers',
  mail_language: null,
};

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe.each([
  ['', false],
  [' (StrictMode)', true],
])('user dialog%s', (_, strict) => {
  const show = (props: Partial<Parameters<typeof UserDialog>[0]> = {}) => {
    const onSubmit = vi.fn();
    const onCancel = vi.fn();
    const dialog = (
      <UserDialog
        user={null}
        groups={groups}
        busy={false}
        error={null}
        onSubmit={onSubmit}
        onCancel={onCancel}
        {...props}
      />
    );
    render(strict ? <StrictMode>{dialog}</StrictMode> : dialog);
    return { onSubmit, onCancel };
  };

  it('adds a user: says an invitation is sent, checks the validation rules, sends trimmed values', () => {
    const { onSubmit } = show();
    expect(screen.getByRole('dialog', { name: 'Add user' })).toBeInTheDocument();
    expect(
      screen.getByText('The user receives an e-mail with a link to set their own password.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/password/i)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add and invite' }));
    expect(screen.getAllByText('This field can not be empty.')).toHaveLength(3);
    expect(onSubmit).not.toHaveBeenCalled();
    type('E-mail (username)', 'rita@');
    expect(screen.getByText('This is not a valid e-mail address.')).toBeInTheDocument();

    type('First name', ' Rita ');
    type('Last name', 'Viewer');
    type('E-mail (username)', 'rita@acme.test ');
    type('Phone', 'abc');
    fireEvent.click(screen.getByRole('button', { name: 'Add and invite' }));
    expect(screen.getByText('This is not a valid phone number')).toBeInTheDocument();
    type('Phone', '+90 555 111 22 33');
    fireEvent.change(screen.getByLabelText('Role'), { target: { value: 'Restricted User' } });
    fireEvent.click(screen.getByLabelText('Supervisors'));
    fireEvent.click(screen.getByLabelText('Turkish'));
    fireEvent.click(screen.getByRole('button', { name: 'Add and invite' }));
    expect(onSubmit).toHaveBeenCalledWith({
      first_name: 'Rita',
      last_name: 'Viewer',
      username: 'rita@acme.test',
      phone: '+90 555 111 22 33',
      role: 'Restricted User',
      groups: [2],
      languages: ['tr'],
    });
    expect(missingKeys).toEqual([]);
  });

  it('edits a user: starts from their values and shows the server’s message', () => {
    const { onSubmit, onCancel } = show({ user, error: 'The company must keep at least one enabled admin' });
    expect(screen.getByRole('dialog', { name: 'Edit Umut Agent' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The company must keep at least one enabled admin');
    expect(screen.getByLabelText('E-mail (username)')).toHaveValue('agent@acme.test');
    expect(screen.getByLabelText('Reviewers')).toBeChecked();
    fireEvent.click(screen.getByLabelText('Reviewers'));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith(
      expect.objectContaining({ username: 'agent@acme.test', groups: [] }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
  });
});
