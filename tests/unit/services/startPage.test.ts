import { describe, expect, it } from 'vitest';
import type { StartPage } from '#contract/constants';
import { homePath, mayChooseStartPage } from '../../../src/services/startPage';

const account = (start_page: StartPage, permissions: string[], role = 'User') => ({
  start_page,
  permissions,
  role,
});

describe('homePath (where `/` takes the signed-in user)', () => {
  it('takes a reviewer who chose the desk to /review', () => {
    expect(homePath(account('review', ['view_profiles_page', 'review_profiles']))).toBe('/review');
    // The desk needs no customers permission: a desk-only reviewer goes there too.
    expect(homePath(account('review', ['review_profiles']))).toBe('/review');
  });

  it('leaves everybody else on the customers list at /', () => {
    expect(homePath(account('customers', ['view_profiles_page', 'review_profiles']))).toBe('/');
    expect(homePath(account('customers', ['view_profiles_page'], 'Admin'))).toBe('/');
    expect(homePath(account('customers', []))).toBe('/');
  });

  it('falls back to / when the account chose the desk but may not open it (review_profiles taken away)', () => {
    expect(homePath(account('review', ['view_profiles_page']))).toBe('/');
    expect(homePath(account('review', [], 'Admin'))).toBe('/');
  });

  it('offers the choice only to users who may open the desk', () => {
    expect(mayChooseStartPage({ permissions: ['review_profiles'], role: 'User' })).toBe(true);
    expect(mayChooseStartPage({ permissions: ['view_profiles_page'], role: 'Admin' })).toBe(false);
  });
});
