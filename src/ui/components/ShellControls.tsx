import { Button, HTMLSelect } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language, switchLanguage } from '../../services/i18n';
import { useTheme } from '../app/theme';
import { showError } from '../toaster';

/** The interface language (docs/product/README.md): a native select, light enough for the sign-in page. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <HTMLSelect
      minimal
      aria-label={t('shell.language')}
      value={i18n.language}
      onChange={(event) =>
        switchLanguage(event.currentTarget.value as Language, i18n).catch(() => showError(t('chunk.title')))
      }
      options={LANGUAGES.map((language) => ({ value: language, label: t(`language.${language}`) }))}
    />
  );
}

/** Light or dark theme. */
export function ThemeToggle() {
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
