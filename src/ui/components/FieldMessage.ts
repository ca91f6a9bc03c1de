import { useTranslation } from 'react-i18next';
import type { ValidationFailure } from '../../machines/validation';

/** The text of a failed validation rule (docs/product/validation.md), or undefined; `limits` fill the length messages. */
export function useValidationText(): (
  failure: ValidationFailure | null | undefined,
  limits?: { min?: number; max?: number },
) => string | undefined {
  const { t } = useTranslation();
  return (failure, limits = {}) => (failure ? t(`validation.${failure}`, limits) : undefined);
}
