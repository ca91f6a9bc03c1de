import { Card, FormGroup, H4, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, switchLanguage } from '../../../services/i18n';
import type { Theme } from '../../../services/theme';
import { useTheme } from '../../app/theme';
import { showError } from '../../toaster';

/** Interface language and theme (the same choices as the shell's controls). */
export function PreferencesCard() {
  const { t } = useTranslation('settings');
  const { t: tc, i18n } = useTranslation();
  const [theme, setTheme] = useTheme();
  return (
    <Card className="studio-settings-card">
      <H4>{t('preferences.title')}</H4>
      <FormGroup label={t('preferences.language')} labelFor="settings-language" inline>
        <HTMLSelect
          id="settings-language"
          value={i18n.language}
          onChange={(event) =>
            switchLanguage(event.currentTarget.value as Language, i18n).catch(() =>
              showError(tc('chunk.title')),
            )
          }
          options={LANGUAGES.map((language) => ({ value: language, label: tc(`language.${language}`) }))}
        />
      </FormGroup>
      <FormGroup label={t('preferences.theme')} labelFor="settings-theme" inline>
        <HTMLSelect
          id="settings-theme"
          value={theme}
          onChange={(event) => setTheme(event.currentTarget.value as Theme)}
          options={[
            { value: 'light', label: t('preferences.light') },
            { value: 'dark', label: t('preferences.dark') },
          ]}
        />
      </FormGroup>
    </Card>
  );
}
