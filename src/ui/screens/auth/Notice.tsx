import { Classes, Icon, type IconName, type Intent } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/**
 * A callout of the sign-in page: Blueprint's Callout markup with its classes, and the Icon the entry loads
 * anyway. Blueprint's Callout brings its own module and four icon components for intents the page always
 * names an icon for.
 */
export function Notice({
  intent,
  icon,
  className,
  role,
  children,
}: {
  intent: Intent;
  icon: IconName;
  className?: string;
  role?: 'status' | 'alert';
  children: ReactNode;
}) {
  const classes = [Classes.CALLOUT, Classes.intentClass(intent), className, Classes.CALLOUT_HAS_BODY_CONTENT];
  return (
    <div className={[...classes, Classes.CALLOUT_ICON].filter(Boolean).join(' ')} role={role}>
      <Icon icon={icon} aria-hidden tabIndex={-1} />
      {children}
    </div>
  );
}
