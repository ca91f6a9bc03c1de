import { type ReactNode, useEffect, useRef, useState } from 'react';

type Overflow = 'start' | 'end' | 'both' | undefined;

function overflowOf(el: HTMLElement): Overflow {
  const before = el.scrollLeft > 1;
  const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
  if (before && after) return 'both';
  if (before) return 'start';
  return after ? 'end' : undefined;
}

/**
 * A wide table in a narrow window (1024 px): the table scrolls sideways inside its frame, its first
 * columns stay (`studio-sticky-columns`), and the frame shades the edge that hides columns. `data-overflow`
 * says which side has more: `end`, `start` or `both` (none when the table fits).
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  const [overflow, setOverflow] = useState<Overflow>(undefined);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setOverflow(overflowOf(el));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    el.addEventListener('scroll', update, { passive: true });
    return () => {
      observer.disconnect();
      el.removeEventListener('scroll', update);
    };
  }, []);
  return (
    <div className="studio-table-frame" data-overflow={overflow}>
      {/* Focusable when it scrolls, so the keyboard can scroll it too (WCAG 2.1.1). */}
      <section
        ref={ref}
        className="studio-table-scroll"
        aria-label={label}
        tabIndex={overflow ? 0 : undefined}
      >
        {children}
      </section>
    </div>
  );
}
