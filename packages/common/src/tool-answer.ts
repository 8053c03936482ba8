/** An MCP tool's answer never grows past this many characters: a model's context is the scarce resource. */
export const maxAnswerChars = 100_000;

/**
 * A tool answer as MCP text content: whole when short enough, else cut at `maxAnswerChars` with a second
 * item saying how long it was and how to narrow the question (`hint`).
 */
export function boundedTextContent(text: string, hint: string): { type: 'text'; text: string }[] {
  if (text.length <= maxAnswerChars) return [{ type: 'text', text }];
  return [
    { type: 'text', text: text.slice(0, maxAnswerChars) },
    {
      type: 'text',
      text: `[truncated: the answer had ${text.length} characters, ${maxAnswerChars} shown; ${hint}]`,
    },
  ];
}
