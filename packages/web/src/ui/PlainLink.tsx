import type { ReactNode } from 'react';

/**
 * A plain `<a>` that a plain click follows in place through `go` (a router's navigate), while Ctrl, Cmd or
 * Shift-click and the middle button keep the browser's own behaviour (new tab, new window). For links the typed
 * router `<Link>` cannot serve: thousands in the topology (they cost seconds to mount), or the hub's pages (their
 * router is not the app's registered one).
 */
export function PlainLink(props: {
  href: string;
  go: () => unknown;
  className?: string;
  title?: string;
  'aria-label'?: string;
  children: ReactNode;
}) {
  const { href, go, children, ...anchor } = props;
  return (
    <a
      href={href}
      {...anchor}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        void go();
      }}
    >
      {children}
    </a>
  );
}
