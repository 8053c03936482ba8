import { boundedTextContent } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** What a tool returns to the client: JSON text (cut with a note when too long), or the error in words. */
export async function answer(run: () => Promise<unknown>): Promise<CallToolResult> {
  try {
    const value = await run();
    return {
      content: boundedTextContent(
        typeof value === 'string' ? value : JSON.stringify(value),
        'narrow the query (namespace, name, limit, grep, compact verbosity)',
      ),
    };
  } catch (error) {
    if (error instanceof AppError)
      return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }] };
    throw error;
  }
}
