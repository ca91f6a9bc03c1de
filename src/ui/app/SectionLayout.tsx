import { AnchorButton, ButtonGroup } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';

export interface Section {
  /** Path relative to the layout's nested route ('/' is its index). */
  path: string;
  label: string;
  icon: IconName;
}

/** A layout of a record with sections (profile, entity): its section links above the screen. */
export function SectionLayout({
  label,
  sections,
  children,
}: {
  label: string;
  sections: readonly Section[];
  children: ReactNode;
}) {
  const [location] = useLocation();
  return (
    <div className="studio-section-layout">
      <nav aria-label={label}>
        <ButtonGroup variant="minimal">
          {sections.map((section) => {
            const active = location === section.path;
            return (
              <Link key={section.path} href={section.path} asChild>
                <AnchorButton
                  role="link"
                  icon={section.icon}
                  text={section.label}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                />
              </Link>
            );
          })}
        </ButtonGroup>
      </nav>
      {children}
    </div>
  );
}
