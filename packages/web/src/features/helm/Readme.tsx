/* biome-ignore-all lint/suspicious/noArrayIndexKey: the pieces of one README never move. */
import type { ReactNode } from 'react';
import { type Block, type Inline, parseMarkdown } from './markdown.ts';

const codeLook = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-xs dark:bg-slate-800';

function Text({ pieces }: { pieces: readonly Inline[] }): ReactNode {
  return pieces.map((piece, index) => {
    switch (piece.type) {
      case 'code':
        return (
          <code key={index} className={codeLook}>
            {piece.text}
          </code>
        );
      case 'break':
        return <br key={index} />;
      case 'strong':
      case 'em':
      case 'del': {
        const Tag = piece.type;
        return (
          <Tag key={index}>
            <Text pieces={piece.children} />
          </Tag>
        );
      }
      case 'link':
        return (
          <a
            key={index}
            href={piece.href}
            target="_blank"
            rel="noreferrer"
            className="text-teal-800 underline dark:text-teal-300"
          >
            <Text pieces={piece.children} />
          </a>
        );
      default:
        return piece.text;
    }
  });
}

const headingLook = ['text-lg', 'text-base', 'text-sm', 'text-sm', 'text-sm', 'text-sm'];

function Blocks({ blocks }: { blocks: readonly Block[] }): ReactNode {
  return blocks.map((block, index) => <BlockView key={index} block={block} />);
}

function BlockView({ block }: { block: Block }) {
  switch (block.type) {
    case 'heading': {
      // The page's own headings come first: a README's # is a level-3 heading here.
      const Tag = (['h3', 'h4', 'h5', 'h6', 'h6', 'h6'] as const)[block.level - 1] ?? 'h6';
      return (
        <Tag className={`mt-2 font-semibold ${headingLook[block.level - 1] ?? 'text-sm'}`}>
          <Text pieces={block.children} />
        </Tag>
      );
    }
    case 'code':
      return (
        <pre className="overflow-auto rounded-md bg-slate-100 p-3 font-mono text-xs dark:bg-slate-950">
          {block.text}
        </pre>
      );
    case 'list': {
      const items = block.items.map((item, index) => (
        <li key={index}>
          <Blocks blocks={item} />
        </li>
      ));
      return block.ordered ? (
        <ol className="list-decimal pl-5" start={block.start}>
          {items}
        </ol>
      ) : (
        <ul className="list-disc pl-5">{items}</ul>
      );
    }
    case 'quote':
      return (
        <blockquote className="border-l-4 border-slate-200 pl-3 text-slate-600 dark:border-slate-700 dark:text-slate-400">
          <Blocks blocks={block.children} />
        </blockquote>
      );
    case 'table':
      return (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-xs">
            <thead className="text-slate-600 dark:text-slate-400">
              <tr>
                {block.head.map((cell, index) => (
                  <th key={index} scope="col" className="px-2 py-1 font-medium">
                    <Text pieces={cell} />
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (
                    <td key={c} className="px-2 py-1 align-top">
                      <Text pieces={cell} />
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
          <Text pieces={block.children} />
        </p>
      );
  }
}

/** A chart's README: its Markdown drawn as headings, lists, quotes, code and tables; HTML in it stays text. */
export function Readme({ text }: { text: string }) {
  return (
    <div className="flex flex-col gap-3 text-sm leading-6">
      <Blocks blocks={parseMarkdown(text)} />
    </div>
  );
}
