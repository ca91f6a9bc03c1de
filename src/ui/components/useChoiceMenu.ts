import { useState } from 'react';

/**
 * A menu whose choices open a dialog or start a change: a choice closes the menu without its popover giving
 * the focus back to its button as it finishes closing. It did, about 300 ms after the dialog had put the focus
 * in its first field, so what was typed then, and Escape, went nowhere. The dialog, or the change once done,
 * decides where the focus goes. Closed without a choice (Escape, a click elsewhere), the menu gives it back.
 */
export function useChoiceMenu() {
  const [isOpen, setOpen] = useState(false);
  const [chosen, setChosen] = useState(false);
  return {
    /** For the menu's PopoverNext (controlled: the choice closes it in the same update). */
    popoverProps: {
      isOpen,
      shouldReturnFocusOnClose: !chosen,
      onInteraction: (open: boolean) => {
        if (open) setChosen(false);
        setOpen(open);
      },
    },
    /** Wraps a menu item's action: closes the menu, then runs it. */
    choose:
      <A extends unknown[]>(run: (...args: A) => void) =>
      (...args: A) => {
        setChosen(true);
        setOpen(false);
        run(...args);
      },
  };
}
