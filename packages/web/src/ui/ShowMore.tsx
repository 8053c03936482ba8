import { useState } from 'react';
import { buttonLook } from './controls.tsx';

/**
 * The first `limit` items until the reader asks for all (long lists stay quick to draw), and the button that
 * asks, which says how many are left; the button is undefined while nothing is hidden.
 */
export function useShowMore<T>(items: T[], limit = 100): { shown: T[]; more?: React.ReactNode } {
  const [all, setAll] = useState(false);
  if (all || items.length <= limit) return { shown: items };
  return {
    shown: items.slice(0, limit),
    more: (
      <div className="flex justify-center pt-3">
        <button type="button" className={buttonLook} onClick={() => setAll(true)}>
          Show all {items.length} ({items.length - limit} more)
        </button>
      </div>
    ),
  };
}
