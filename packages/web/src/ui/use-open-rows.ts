import { useState } from 'react';

/** Which rows of a table are open (by key), and the toggle for one. */
export function useOpenRows(): { isOpen: (key: string) => boolean; toggle: (key: string) => void } {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  return {
    isOpen: (key) => open.has(key),
    toggle: (key) =>
      setOpen((was) => {
        const next = new Set(was);
        if (!next.delete(key)) next.add(key);
        return next;
      }),
  };
}
