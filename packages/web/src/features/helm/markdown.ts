/**
 * The part of Markdown a chart's README leans on, read into blocks: headings, fenced code, lists, tables
 * (parameter lists are tables) and paragraphs. Raw HTML is never interpreted: it stays text.
 */
export type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'code'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'table'; head: string[]; rows: string[][] }
  | { type: 'paragraph'; text: string };

/** An inline piece of text: plain, `code`, **strong**, or a link (only http and https links are kept). */
export type Inline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; text: string }
  | { type: 'link'; text: string; href: string };

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replaceAll('\\|', '|'));
const isTableRule = (line = '') => /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line);
const listItem = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/;
const startsBlock = (line: string) =>
  /^(#{1,6}\s|```|~~~)/.test(line) || listItem.test(line) || line.trim().startsWith('|');

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  const blocks: Block[] = [];
  let at = 0;
  while (at < lines.length) {
    const line = lines[at] ?? '';
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    const fence = /^(```|~~~)/.exec(line);
    if (line.trim() === '' || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      at += 1;
    } else if (heading) {
      blocks.push({ type: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
      at += 1;
    } else if (fence) {
      const end = lines.findIndex((l, i) => i > at && l.startsWith(fence[1] ?? '```'));
      const stop = end === -1 ? lines.length : end;
      blocks.push({ type: 'code', text: lines.slice(at + 1, stop).join('\n') });
      at = stop + 1;
    } else if (line.trim().startsWith('|') && isTableRule(lines[at + 1])) {
      const head = cells(line);
      at += 2;
      const rows: string[][] = [];
      while (lines[at]?.trim().startsWith('|')) rows.push(cells(lines[at++] ?? ''));
      blocks.push({ type: 'table', head, rows });
    } else if (listItem.test(line)) {
      const items: string[] = [];
      for (let m = listItem.exec(line); m && at < lines.length; m = listItem.exec(lines[at] ?? '')) {
        items.push(m[1] ?? '');
        at += 1;
      }
      blocks.push({ type: 'list', items });
    } else {
      const text: string[] = [];
      while (
        at < lines.length &&
        (lines[at] ?? '').trim() !== '' &&
        (text.length === 0 || !startsBlock(lines[at] ?? ''))
      )
        text.push((lines[at++] ?? '').trim());
      blocks.push({ type: 'paragraph', text: text.join(' ') });
    }
  }
  return blocks;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push({ type: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ type: 'code', text: m[1] });
    else if (m[2] !== undefined) out.push({ type: 'strong', text: m[2] });
    else if (/^https?:\/\//.test(m[4] ?? '')) out.push({ type: 'link', text: m[3] ?? '', href: m[4] ?? '' });
    else out.push({ type: 'text', text: m[3] ?? '' });
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ type: 'text', text: text.slice(last) });
  return out;
}
