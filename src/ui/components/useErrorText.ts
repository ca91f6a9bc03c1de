import { useTranslation } from 'react-i18next';
import { isApiError } from '../../services/api/http';

/** The server's detail when it sent one (docs/product/errors.md), else "An error occured". */
export function useErrorText() {
  const { t } = useTranslation();
  return (error: unknown) => (isApiError(error) && error.detail ? error.detail : t('messages.error'));
}
