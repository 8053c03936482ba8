import type { ReactNode } from 'react';
import { goTo } from '../router.tsx';

/**
 * A link between the hub's pages. The typed `<Link>` knows the agent's routes (the app's registered router), so
 * the hub's pages navigate through their own router: a plain link that a plain click follows in place.
 */
export function HubLink({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <a
      href={to}
      className={className}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        void goTo(to);
      }}
    >
      {children}
    </a>
  );
}
