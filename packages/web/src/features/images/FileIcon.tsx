import type { FileNode } from './tree.ts';

const paths: Record<FileNode['type'], string> = {
  directory: 'M1.5 3.5h4l1.5 1.5h7.5v8.5h-13z',
  file: 'M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3',
  symlink:
    'M6 10l4-4 M7 4.5l1.5-1.5a2.5 2.5 0 0 1 3.5 3.5l-1.5 1.5 M9 11.5l-1.5 1.5a2.5 2.5 0 0 1-3.5-3.5l1.5-1.5',
  hardlink: 'M3.5 1.5h6l3 3v10h-9z M6 9.5h4 M6 11.5h4',
  other: 'M3 3h10v10h-10z M6 6h4v4h-4z',
};

const tones: Record<FileNode['type'], string> = {
  directory: 'text-amber-600 fill-amber-100 dark:text-amber-400 dark:fill-amber-950',
  file: 'text-slate-500 fill-none dark:text-slate-400',
  symlink: 'text-sky-600 fill-none dark:text-sky-400',
  hardlink: 'text-violet-600 fill-none dark:text-violet-400',
  other: 'text-rose-600 fill-none dark:text-rose-400',
};

/** A glyph for an entry's type, beside its name (the row says the type in words too). */
export function FileIcon({ type }: { type: FileNode['type'] }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={`h-4 w-4 shrink-0 stroke-current ${tones[type]}`}>
      <path d={paths[type]} strokeWidth="1.2" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
