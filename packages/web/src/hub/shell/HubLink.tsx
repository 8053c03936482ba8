import type { ReactNode } from 'react';
import { PlainLink } from '../../ui/PlainLink.tsx';
import { goTo } from '../router.tsx';

/** A link between the hub's pages, followed in place by the hub's router. */
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
    <PlainLink href={to} go={() => goTo(to)} className={className}>
      {children}
    </PlainLink>
  );
}
