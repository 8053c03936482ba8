import { type Block, parseInline, parseMarkdown } from './markdown.ts';

const codeLook = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-xs dark:bg-slate-800';

function Text({ text }: { text: string }) {
  return (
    <>
      {parseInline(text).map((piece, index) => {
        const key = `${index}-${piece.type}`;
        if (piece.type === 'code')
          return (
            <code key={key} className={codeLook}>
              {piece.text}
            </code>
          );
        if (piece.type === 'strong') return <strong key={key}>{piece.text}</strong>;
        if (piece.type === 'link')
          return (
            <a
              key={key}
              href={piece.href}
              target="_blank"
              rel="noreferrer"
              className="text-teal-800 underline dark:text-teal-300"
            >
              {piece.text}
            </a>
          );
        return piece.text;
      })}
    </>
  );
}

const headingLook = ['text-lg', 'text-base', 'text-sm', 'text-sm', 'text-sm', 'text-sm'];

function BlockView({ block }: { block: Block }) {
  switch (block.type) {
    case 'heading': {
      // The page's own headings come first: a README's # is a level-3 heading here.
      const Tag = (['h3', 'h4', 'h5', 'h6', 'h6', 'h6'] as const)[block.level - 1] ?? 'h6';
      return (
        <Tag className={`mt-2 font-semibold ${headingLook[block.level - 1] ?? 'text-sm'}`}>
          <Text text={block.text} />
        </Tag>
      );
    }
    case 'code':
      return (
        <pre className="overflow-auto rounded-md bg-slate-100 p-3 font-mono text-xs dark:bg-slate-950">
          {block.text}
        </pre>
      );
    case 'list':
      return (
        <ul className="list-disc pl-5">
          {block.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the items of one README never move.
            <li key={index}>
              <Text text={item} />
            </li>
          ))}
        </ul>
      );
    case 'table':
      return (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-xs">
            <thead className="text-slate-600 dark:text-slate-400">
              <tr>
                {block.head.map((cell, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns never move.
                  <th key={index} scope="col" className="px-2 py-1 font-medium">
                    <Text text={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {block.rows.map((row, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: as above, the rows.
                <tr key={r}>
                  {row.map((cell, c) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: as above, the cells.
                    <td key={c} className="px-2 py-1 align-top">
                      <Text text={cell} />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
    default:
      return (
        <p>
          <Text text={block.text} />
        </p>
      );
  }
}

/** A chart's README, its Markdown read for headings, lists, code and tables; HTML in it stays text. */
export function Readme({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-3 text-sm leading-6">
      {parseMarkdown(text).map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the blocks of one README never move.
        <BlockView key={index} block={block} />
      ))}
    </div>
  );
}
