import {
  Alignment,
  AnchorButton,
  Button,
  Classes,
  Menu,
  MenuDivider,
  MenuItem,
  Navbar,
  NavbarDivider,
  NavbarGroup,
  NavbarHeading,
  Popover,
} from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { type Account, accountKey, accounts } from '../../services/accounts';
import { LANGUAGES, type Language, switchLanguage } from '../../services/i18n';
import { canVisit } from '../../services/permissions';
import { showError, showSuccess } from '../toaster';
import { ACCOUNT_AREAS, isAreaActive, NAV_AREAS } from './areas';
import { ADD_ACCOUNT_QUERY } from './guards';
import { reloadPage } from './reload';
import { useTheme } from './theme';
import { useActiveAccount, useStoredAccounts } from './useAccounts';

function NavAreas({ account }: { account: Account }) {
  const { t } = useTranslation();
  // The full path: the shell also shows inside nested routes (profile, entity).
  const [location] = useBrowserLocation();
  return (
    <nav aria-label={t('nav.label')} className="studio-nav">
      {NAV_AREAS.filter((area) => canVisit(area.path, account)).map((area) => {
        const active = isAreaActive(area, location);
        return (
          <Link key={area.path} href={`~${area.path}`} asChild>
            <AnchorButton
              role="link"
              variant="minimal"
              icon={area.icon}
              text={t(area.label)}
              active={active}
              aria-current={active ? 'page' : undefined}
            />
          </Link>
        );
      })}
    </nav>
  );
}

function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = i18n.language as Language;
  return (
    <Popover
      placement="bottom-end"
      content={
        <Menu aria-label={t('shell.language')}>
          {LANGUAGES.map((language) => (
            <MenuItem
              key={language}
              text={t(`language.${language}`)}
              lang={language}
              roleStructure="listoption"
              selected={language === current}
              onClick={() => switchLanguage(language, i18n).catch(() => showError(t('chunk.title')))}
            />
          ))}
        </Menu>
      }
    >
      <Button
        variant="minimal"
        icon="globe"
        endIcon="caret-down"
        text={t(`language.${current}`)}
        aria-label={t('shell.language')}
      />
    </Popover>
  );
}

function ThemeToggle() {
  const { t } = useTranslation();
  const [theme, setTheme] = useTheme();
  const label = theme === 'dark' ? t('shell.theme.toLight') : t('shell.theme.toDark');
  return (
    <Button
      variant="minimal"
      icon={theme === 'dark' ? 'flash' : 'moon'}
      aria-label={label}
      title={label}
      onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
    />
  );
}

function AccountMenu({ account }: { account: Account }) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const others = useStoredAccounts().filter((a) => accountKey(a) !== accountKey(account) && a.access);
  const switchTo = (other: Account) => {
    if (!accounts.switchTo(accountKey(other))) return;
    navigate('~/');
    void showSuccess(t('shell.account.switched', { email: other.email }));
  };
  const logout = (all: boolean) => {
    if (all) accounts.logoutAll();
    else accounts.logout();
    reloadPage();
  };
  return (
    <Popover
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
      <Button
        variant="minimal"
        icon="user"
        endIcon="caret-down"
        text={account.name || account.email}
        aria-label={t('shell.account.menu')}
      />
    </Popover>
  );
}

/** The main layout: the shell's navbar above the screen. */
export function MainLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const account = useActiveAccount();
  if (!account) return null;
  return (
    <div className="studio-shell">
      <a className="studio-skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Navbar className="studio-navbar">
        <NavbarGroup align={Alignment.START}>
          <NavbarHeading className="studio-brand">
            <Link href="~/">{t('app.name')}</Link>
          </NavbarHeading>
          <NavbarDivider />
          <NavAreas account={account} />
        </NavbarGroup>
        <NavbarGroup align={Alignment.END}>
          <LanguageMenu />
          <ThemeToggle />
          <NavbarDivider />
          <AccountMenu account={account} />
        </NavbarGroup>
      </Navbar>
      <main id="main" className={`studio-main ${Classes.RUNNING_TEXT}`} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
