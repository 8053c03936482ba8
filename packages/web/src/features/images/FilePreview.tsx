import { useQuery } from '@tanstack/react-query';
import { buttonLook, mutedLook } from '../../ui/controls.tsx';
import { Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { formatBytes } from '../../ui/units.ts';
import { previewBytes } from './decode-head.ts';
import { fileUrl, type ImageQuery, readFileHead } from './file-head.ts';
import type { FileNode } from './tree.ts';

/**
 * One file of the image: its first 256 KiB in place when it is text, and a download of the whole (the agent
 * answers it as an attachment, up to its --image-file-max-size; a larger file is refused with 413, shown here).
 */
export function FilePreview({ query, node, path }: { query: ImageQuery; node?: FileNode; path: string }) {
  const head = useQuery({
    queryKey: ['image-file', query, path],
    queryFn: ({ signal }) => readFileHead(query, path, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <section
      aria-label={`File ${path}`}
      className="flex min-w-0 flex-col rounded-lg border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-slate-200 px-4 py-2.5 dark:border-slate-800">
        <h2 className="min-w-0 flex-1 truncate font-mono text-sm font-semibold" title={path}>
          {path}
        </h2>
        <a className={buttonLook} href={fileUrl(query, path)} download>
          Download
        </a>
      </div>
      {node && (
        <p className={`px-4 pt-2 text-xs ${mutedLook}`}>
          {formatBytes(node.size)} · layer {node.layer}
          {node.linkTarget &&
            ` · ${node.type === 'symlink' ? 'symbolic' : 'hard'} link to ${node.linkTarget}`}
        </p>
      )}
      <div className="min-h-0 p-4 pt-2">
        {head.isPending ? (
          <Loading what="the file" />
        ) : head.isError ? (
          <ErrorMessage error={head.error} what={path} />
        ) : head.data.kind === 'binary' ? (
          <Empty>Binary file: not shown. Download it to read it.</Empty>
        ) : (
          <>
            {head.data.truncated && (
              <p className={`mb-2 text-xs ${mutedLook}`}>
                The first {formatBytes(previewBytes)} shown; download the file for the rest.
              </p>
            )}
            {head.data.text === '' ? (
              <Empty>Empty file.</Empty>
            ) : (
              <pre
                // biome-ignore lint/a11y/noNoninteractiveTabindex: long lines scroll; the keyboard must reach them.
                tabIndex={0}
                className="max-h-[520px] overflow-auto rounded-md bg-slate-900 p-3 dark:bg-slate-950 dark:ring-1 dark:ring-slate-800 font-mono text-xs leading-5 text-slate-100"
              >
                {head.data.text}
              </pre>
            )}
          </>
        )}
      </div>
    </section>
  );
}
