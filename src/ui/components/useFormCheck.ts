import { useState } from 'react';
import type { ValidationFailure } from '../../machines/validation';

/**
 * A form's validation rules (docs/product/validation.md), shown once the user has tried to send it: `failures` holds each field's failed rule
 * (empty before the first try), `passes()` marks the form as tried and tells whether it may be sent.
 */
export function useFormCheck<K extends string>(rules: () => Record<K, ValidationFailure | null>) {
  const [tried, setTried] = useState(false);
  const current = rules();
  const failures: Partial<Record<K, ValidationFailure | null>> = tried ? current : {};
  return {
    failures,
    passes: () => {
      setTried(true);
      return Object.values<ValidationFailure | null>(current).every((failure) => !failure);
    },
    reset: () => setTried(false),
  };
}
