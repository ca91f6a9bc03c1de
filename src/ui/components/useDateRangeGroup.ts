import { Classes } from '@blueprintjs/core';
import { useEffect, useRef } from 'react';

/**
 * The ref for the element around a Blueprint DateRangeInput. Blueprint puts its popover's aria-expanded and
 * aria-haspopup on the inputs' wrapper <div>, where ARIA does not allow them (axe aria-allowed-attr,
 * critical); the wrapper is the group of the two dates, and with that role both attributes are allowed.
 * Its renderTarget ignores targetProps, hence the DOM step after every render.
 */
export function useDateRangeGroup(label: string) {
  const wrapper = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const group = wrapper.current?.querySelector(`.${Classes.CONTROL_GROUP}`);
    group?.setAttribute('role', 'group');
    group?.setAttribute('aria-label', label);
  });
  return wrapper;
}
