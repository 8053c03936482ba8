import type { ReactNode } from 'react';
import { mutedLook } from './controls.tsx';

/** A page's title over a line saying what it shows, with the page's filters or switches at the right. */
export function PageHeading({
  title,
  about,
  children,
}: {
  title: string;
  about: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="mr-auto">
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className={`text-sm ${mutedLook}`}>{about}</p>
      </div>
      {children}
    </div>
  );
}
