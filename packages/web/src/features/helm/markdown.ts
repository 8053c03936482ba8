import { Lexer, type Token, type Tokens } from 'marked';

/**
 * A chart's README read by marked's lexer (CommonMark with GitHub's tables, ADR 0098) into the few shapes the page
 * draws. Nothing of it is ever HTML: raw HTML stays text, links keep only http and https targets, and images show
 * their alternative text (a README must not make the browser fetch from wherever it points).
 */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'break' }
  | { type: 'strong' | 'em' | 'del'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'code'; text: string }
  | { type: 'list'; ordered: boolean; start?: number; items: Block[][] }
  | { type: 'table'; head: Inline[][]; rows: Inline[][][] }
  | { type: 'quote'; children: Block[] }
  | { type: 'paragraph'; children: Inline[] };

const entities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** The lexer leaves character references as written (an HTML renderer would decode them); text drawn by React must not. */
const decoded = (text: string) =>
  text.replace(/&(#\d{1,7}|#x[\da-f]{1,6}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] !== '#') return entities[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

function inlines(tokens: readonly Token[] = []): Inline[] {
  return tokens.flatMap((token): Inline[] => {
    switch (token.type) {
      case 'text':
        return 'tokens' in token && token.tokens
          ? inlines(token.tokens)
          : [{ type: 'text', text: decoded(token.text) }];
      case 'escape':
        return [{ type: 'text', text: token.text }];
      case 'codespan':
        return [{ type: 'code', text: decoded(token.text) }];
      case 'br':
        return [{ type: 'break' }];
      case 'strong':
      case 'em':
      case 'del':
        return [{ type: token.type, children: inlines(token.tokens) }];
      case 'link': {
        const children = inlines(token.tokens);
        return /^https?:\/\//i.test(token.href) ? [{ type: 'link', href: token.href, children }] : children;
      }
      case 'image':
        return [{ type: 'text', text: token.text }];
      default:
        // Raw HTML and whatever else the lexer knows: shown as written.
        return [{ type: 'text', text: token.raw }];
    }
  });
}

function blocks(tokens: readonly Token[]): Block[] {
  return tokens.flatMap((token): Block[] => {
    switch (token.type) {
      case 'space':
      case 'hr':
      case 'def':
        return [];
      case 'heading':
        return [{ type: 'heading', level: token.depth, children: inlines(token.tokens) }];
      case 'code':
        return [{ type: 'code', text: token.text }];
      case 'paragraph':
        return [{ type: 'paragraph', children: inlines(token.tokens) }];
      case 'text':
        // A tight list item's text.
        return [{ type: 'paragraph', children: inlines(token.tokens ?? [token]) }];
      case 'list': {
        const list = token as Tokens.List;
        return [
          {
            type: 'list',
            ordered: list.ordered,
            ...(list.ordered && typeof list.start === 'number' && list.start !== 1
              ? { start: list.start }
              : {}),
            items: list.items.map((item) => blocks(item.tokens)),
          },
        ];
      }
      case 'table': {
        const table = token as Tokens.Table;
        return [
          {
            type: 'table',
            head: table.header.map((cell) => inlines(cell.tokens)),
            rows: table.rows.map((row) => row.map((cell) => inlines(cell.tokens))),
          },
        ];
      }
      case 'blockquote':
        return [{ type: 'quote', children: blocks(token.tokens ?? []) }];
      default:
        return [{ type: 'paragraph', children: [{ type: 'text', text: token.raw.trim() }] }];
    }
  });
}

export function parseMarkdown(source: string): Block[] {
  return blocks(Lexer.lex(source, { gfm: true }));
}
