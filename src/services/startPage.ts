/**
 * Where `/` takes the signed-in user: their start page when they may open it, else the
 * customers list that `/` has always shown. One rule for the route (`Index`), its guard and its preload
 * (routeTable.ts), so the chunk preloaded is the screen that opens.
 */
import type { Account } from './accounts';
import { canVisit } from './permissions';

/** The reviewers' desk. */
export const REVIEW_PATH = '/review';

/** Whether the account has a start page to choose: only the desk's users have a second screen to open. */
export const mayChooseStartPage = (account: Pick<Account, 'permissions' | 'role'>): boolean =>
  canVisit(REVIEW_PATH, account);

/**
 * `/review` for a user who chose the desk and may open it, `/` (the customers list) for everybody else: a
 * stored 'review' without review_profiles (taken away since, or set by an Admin) falls back, not to a 403 screen.
 */
export function homePath(
  account: Pick<Account, 'permissions' | 'role' | 'start_page'>,
): '/' | typeof REVIEW_PATH {
  return account.start_page === 'review' && mayChooseStartPage(account) ? REVIEW_PATH : '/';
}
