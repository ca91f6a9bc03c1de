import { useTranslation } from 'react-i18next';
import type { ValidationFailure } from '../../machines/validation';

/** The §5 text of a failed validation rule, or undefined. */
export function useValidationText(): (failure: ValidationFailure | null | undefined) => string | undefined {
  const { t } = useTranslation();
  return (failure) => (failure ? t(`validation.${failure}`) : undefined);
}
