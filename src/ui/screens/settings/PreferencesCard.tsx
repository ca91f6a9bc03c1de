import { Card, FormGroup, H4 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { LanguageSelect, ThemeToggle } from '../../components/ShellControls';
import { MailLanguageSelect } from './MailLanguageSelect';
import { StartPageSelect } from './StartPageSelect';

/**
 * Interface language and theme (the shell's own controls, also here where users look for them) and, for the
 * reviewers' desk users, the start page; the language of one's e-mail.
 */
export function PreferencesCard() {
  const { t } = useTranslation('admin', { keyPrefix: 'settings' });
  return (
    <Card className="studio-settings-card">
      <H4>{t('preferences.title')}</H4>
      <FormGroup label={t('preferences.language')} inline>
        <LanguageSelect />
      </FormGroup>
      <FormGroup label={t('preferences.theme')} inline>
        <ThemeToggle />
      </FormGroup>
      <StartPageSelect />
      <MailLanguageSelect />
    </Card>
  );
}
