import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown.ts';

describe("reading a chart's README", () => {
  it('finds headings, paragraphs, lists, fenced code and tables', () => {
    const readme = [
      '# billing',
      '',
      'The demo billing service:',
      'a Deployment and a Service.',
      '',
      '- one',
      '* two',
      '',
      '```yaml',
      'config:',
      '  currency: USD',
      '```',
      '',
      '| value | default |',
      '|---|:---:|',
      '| `replicaCount` | `2` |',
      '| `a\\|b` | x |',
      '---',
    ].join('\n');
    expect(parseMarkdown(readme)).toEqual([
      { type: 'heading', level: 1, text: 'billing' },
      { type: 'paragraph', text: 'The demo billing service: a Deployment and a Service.' },
      { type: 'list', items: ['one', 'two'] },
      { type: 'code', text: 'config:\n  currency: USD' },
      {
        type: 'table',
        head: ['value', 'default'],
        rows: [
          ['`replicaCount`', '`2`'],
          ['`a|b`', 'x'],
        ],
      },
    ]);
  });

  it('keeps an unclosed fence to the end and a pipe line without a rule as text', () => {
    expect(parseMarkdown('| not a table\n\n```\ncode')).toEqual([
      { type: 'paragraph', text: '| not a table' },
      { type: 'code', text: 'code' },
    ]);
  });

  it('reads code, strong text and web links inline, and drops other link targets', () => {
    expect(
      parseInline('Set `image.tag`, **not** [docs](https://helm.sh) or [x](javascript:alert(1))'),
    ).toEqual([
      { type: 'text', text: 'Set ' },
      { type: 'code', text: 'image.tag' },
      { type: 'text', text: ', ' },
      { type: 'strong', text: 'not' },
      { type: 'text', text: ' ' },
      { type: 'link', text: 'docs', href: 'https://helm.sh' },
      { type: 'text', text: ' or ' },
      { type: 'text', text: 'x' },
      { type: 'text', text: ')' },
    ]);
  });
});
