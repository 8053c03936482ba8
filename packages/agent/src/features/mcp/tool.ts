import { boundedTextContent } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Impersonation } from '../../kube/client.ts';
import type { McpContext } from './module.ts';

/** Who calls a tool and with what: the agent, and the caller every read and write runs as (undefined: the agent). */
export interface ToolCall {
  ctx: McpContext;
  caller?: Impersonation;
  now: number;
}

/** One MCP tool: its input schema (zod, as the SDK takes it), whether it changes the cluster, and what it does. */
export interface Tool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  /** Changes the cluster: marked destructive, left out of a read-only endpoint. */
  writes?: boolean;
  run(args: z.infer<z.ZodObject<Shape>>, call: ToolCall): Promise<unknown>;
}

/** Keeps a tool's argument types while it joins a list of tools of other shapes. */
export const tool = <Shape extends z.ZodRawShape>(definition: Tool<Shape>): Tool =>
  definition as unknown as Tool;

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
