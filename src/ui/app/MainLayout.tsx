import 'virtual:blueprint-pages.css';
import 'virtual:blueprint-shell.css';
import './shellIcons';
import './realtime/realtime.css';
import './signedIn.css';
import {
  Alignment,
  AnchorButton,
  Button,
  Menu,
  MenuDivider,
  MenuItem,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  PopoverNext,
  Tooltip,
} from '@blueprintjs/core';
import { QueryClientProvider } from '@tanstack/react-query';
import {
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { type Account, accountKey, accounts } from '../../services/accounts';
import { isSsoSession, ssoLogout } from '../../services/api/sso';
import { canVisit } from '../../services/permissions';
import { LanguageSelect, ThemeToggle } from '../components/ShellControls';
import { showSuccess } from '../toaster';
import { ACCOUNT_AREAS, isAreaActive, NAV_AREAS } from './areas';
import { ForcedSteps } from './ForcedSteps';
import { installIntentPreload } from './intent';
import { ADD_ACCOUNT_QUERY } from './loginQuery';
import { queryClient } from './queryClient';
import { AgentStatusControl } from './realtime/AgentStatusControl';
import { ConnectionBanner } from './realtime/ConnectionBanner';
import { IncomingCall } from './realtime/IncomingCall';
import { NotificationBell } from './realtime/NotificationBell';
import { RealtimeProvider } from './realtime/RealtimeProvider';
import { reloadPage } from './reload';
import { UnpaidBanner } from './UnpaidBanner';
import { useActiveAccount, useStoredAccounts } from './useAccounts';
import { useMounted } from './useMounted';

/** Below this width the areas show as icons with tooltips, so the navbar keeps one row (1024 px, Turkish). */
const COMPACT_NAV = '(max-width: 1279px)';

/** Whether the media query matches, followed as it changes (false where there is no matchMedia, e.g. jsdom). */
function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = globalThis.matchMedia?.(query);
      list?.addEventListener('change', changed);
      return () => list?.removeEventListener('change', changed);
    },
    () => globalThis.matchMedia?.(query).matches ?? false,
  );
}

/**
 * Whether the areas show as icons alone: below COMPACT_NAV, or wherever their names would push the bar to a second
 * row (an Admin's areas in Turkish at 1280 px). Measured before the browser paints, so names never flash: when the
 * bar's last group drops below its first, the names go; when the bar grows wider than it was then, or the language
 * or the account changes, the names are tried again.
 */
function useCompactAreas(nav: RefObject<HTMLElement | null>, key: string): boolean {
  const narrow = useMediaQuery(COMPACT_NAV);
  const [wrapped, setWrapped] = useState<{ key: string; width: number } | null>(null);
  const wraps = wrapped !== null && wrapped.key === key;
  useLayoutEffect(() => {
    const bar = nav.current?.closest<HTMLElement>('.studio-navbar');
    if (!bar || narrow || typeof ResizeObserver === 'undefined') return;
    const check = () => {
      const first = bar.firstElementChild as HTMLElement | null;
      const last = bar.lastElementChild as HTMLElement | null;
      if (!first || !last) return;
      if (!wraps && last.offsetTop > first.offsetTop) setWrapped({ key, width: bar.clientWidth });
      else if (wraps && bar.clientWidth > (wrapped?.width ?? 0)) setWrapped(null);
    };
    check();
    const observer = new ResizeObserver(check);
    observer.observe(bar);
    return () => observer.disconnect();
  }, [nav, narrow, key, wraps, wrapped]);
  return narrow || wraps;
}

function NavAreas({ account }: { account: Account }) {
  const { t, i18n } = useTranslation();
  // The full path: the shell also shows inside nested routes (profile, entity).
  const [location] = useBrowserLocation();
  const nav = useRef<HTMLElement>(null);
  const compact = useCompactAreas(nav, `${i18n.language} ${accountKey(account)}`);
  return (
    <nav ref={nav} aria-label={t('nav.label')} className="studio-nav">
      {NAV_AREAS.filter((area) => canVisit(area.path, account)).map((area) => {
        const active = isAreaActive(area, location);
        const label = t(area.label);
        const link = (
          <Link key={area.path} href={`~${area.path}`} asChild>
            <AnchorButton
              role="link"
              variant="minimal"
              icon={area.icon}
              text={compact ? undefined : label}
              aria-label={compact ? label : undefined}
              active={active}
              aria-current={active ? 'page' : undefined}
            />
          </Link>
        );
        return compact ? (
          <Tooltip key={area.path} content={label} placement="bottom">
            {link}
          </Tooltip>
        ) : (
          link
        );
      })}
    </nav>
  );
}

function AccountMenu({ account }: { account: Account }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const others = useStoredAccounts().filter((a) => accountKey(a) !== accountKey(account) && a.access);
  const mounted = useMounted();
  const switchTo = (other: Account) => {
    if (!accounts.switchTo(accountKey(other))) return;
    navigate('~/');
    void showSuccess(t('shell.account.switched', { email: other.email }));
  };
  const logout = (all: boolean) => {
    // A session that came from the company's identity provider signs out there too (RP-initiated logout): its
    // server ends it and names the provider's logout address, then the account is forgotten and the browser goes.
    if (!all && isSsoSession(account.access)) {
      void ssoLogout(account).then((url) => {
        accounts.logout();
        if (url) window.location.assign(url);
        else reloadPage();
      });
      return;
    }
    if (all) accounts.logoutAll();
    else accounts.logout();
    reloadPage();
  };
  const button = (
    <Button
      variant="minimal"
      icon="user"
      endIcon="caret-down"
      className="studio-account-button"
      text={account.name || account.email}
      // The accessible name holds the visible text (WCAG 2.5.3: label in name).
      aria-label={`${t('shell.account.menu')}: ${account.name || account.email}`}
    />
  );
  // The popover from the second render on (useMounted: no synchronous second render in the first commit).
  if (!mounted) return button;
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu aria-label={t('shell.account.menu')}>
          <MenuDivider title={t('shell.account.current')} />
          <MenuItem
            icon="user"
            text={account.email}
            label={account.name ? undefined : t('shell.account.company', { id: account.company_id })}
            disabled
          />
          {others.length > 0 && <MenuDivider title={t('shell.account.others')} />}
          {others.map((other) => (
            <MenuItem
              key={accountKey(other)}
              icon="swap-horizontal"
              text={other.email}
              label={t('shell.account.company', { id: other.company_id })}
              onClick={() => switchTo(other)}
            />
          ))}
          <MenuItem
            icon="new-person"
            text={t('shell.account.addAccount')}
            onClick={() => navigate(`~/login?${ADD_ACCOUNT_QUERY}`)}
          />
          <MenuDivider />
          {ACCOUNT_AREAS.filter((area) => canVisit(area.path, account)).map((area) => (
            <MenuItem
              key={area.path}
              icon={area.icon}
              text={t(area.label)}
              onClick={() => navigate(`~${area.path}`)}
            />
          ))}
          <MenuDivider />
          <MenuItem icon="log-out" text={t('shell.account.logout')} onClick={() => logout(false)} />
          {others.length > 0 && (
            <MenuItem
              icon="log-out"
              intent="danger"
              text={t('shell.account.logoutAll')}
              onClick={() => logout(true)}
            />
          )}
        </Menu>
      }
    >
      {button}
    </PopoverNext>
  );
}

/** The main layout: the shell's navbar above the screen. */
export function MainLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  // Preload on intent where links to profiles, documents, calls and lists are: the signed-in shell.
  useEffect(() => installIntentPreload(document), []);
  const account = useActiveAccount();
  if (!account) return null;
  return (
    <RealtimeProvider account={account}>
      <div className="studio-shell">
        <a className="studio-skip-link" href="#main">
          {t('app.skipToContent')}
        </a>
        <Navbar className="studio-navbar" role="banner">
          <NavbarGroup align={Alignment.START}>
            <NavbarHeading className="studio-brand">
              <Link href="~/">{t('app.name')}</Link>
            </NavbarHeading>
            <NavbarDivider />
            <NavAreas account={account} />
          </NavbarGroup>
          <NavbarGroup align={Alignment.END}>
            <AgentStatusControl />
            <NotificationBell account={account} />
            <LanguageSelect />
            <ThemeToggle />
            <NavbarDivider />
            <AccountMenu account={account} />
          </NavbarGroup>
        </Navbar>
        <ConnectionBanner />
        <main id="main" className="studio-main" tabIndex={-1}>
          <QueryClientProvider client={queryClient}>
            <UnpaidBanner account={account} />
            {children}
            <ForcedSteps account={account} />
          </QueryClientProvider>
        </main>
        <IncomingCall />
      </div>
    </RealtimeProvider>
  );
}
