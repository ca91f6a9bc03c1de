import { Classes, Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/**
 * A labelled control in Blueprint's form-group markup. Not Blueprint's FormGroup component: shared with these
 * screens, it would leave the sign-in page's chunk and add a chunk to the /login route (budget,
 * docs/decisions/0035-api-docs-swagger-ui-dist.md).
 */
export function LabeledField({
  label,
  labelFor,
  helperText,
  intent = Intent.NONE,
  inline = false,
  children,
}: {
  label: string;
  labelFor: string;
  helperText?: string;
  intent?: Intent;
  inline?: boolean;
  children: ReactNode;
}) {
  const classes = [Classes.FORM_GROUP, inline ? Classes.INLINE : '', Classes.intentClass(intent) ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      <label className={Classes.LABEL} htmlFor={labelFor}>
        {label}
      </label>
      <div className={Classes.FORM_CONTENT}>
        {children}
        {helperText && <div className={Classes.FORM_HELPER_TEXT}>{helperText}</div>}
      </div>
    </div>
  );
}
