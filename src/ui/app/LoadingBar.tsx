import { useTranslation } from 'react-i18next';

/** The 3px loading bar (docs/product/constants.md) shown at the top while a route's chunk loads. */
export function LoadingBar() {
  const { t } = useTranslation();
  return <div className="studio-loading-bar" role="progressbar" aria-label={t('app.loading')} />;
}
