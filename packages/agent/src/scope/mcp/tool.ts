import type { z } from 'zod';
import type { Impersonation } from '../../kube/client.ts';

/** Who calls a tool and when: the caller every read and write runs as (undefined: the agent). */
export interface ToolCall {
  caller?: Impersonation;
  now: number;
}

/**
 * What one MCP tool is to an assistant: its input schema (zod, as the SDK takes it) and whether it changes the
 * cluster.
 */
interface ToolListing<Shape extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  input: Shape;
  /** Changes the cluster: marked destructive, left out of a read-only endpoint. */
  writes?: boolean;
}

/**
 * One MCP tool as a feature module declares it (docs/adr/0101-mcp-tools-from-modules.md): it runs with its
 * module's view of the agent (`ctx`) and the shared services its module uses, as the caller.
 */
export interface ModuleTool<Ctx = unknown, Uses = unknown, Shape extends z.ZodRawShape = z.ZodRawShape>
  extends ToolListing<Shape> {
  // A property, not a method: its parameters compare strictly, so tsc refuses a tool that reads more of the agent
  // or of the shared services than its module declares.
  run: (args: z.infer<z.ZodObject<Shape>>, call: ToolCall & { ctx: Ctx; uses: Uses }) => Promise<unknown>;
}

/** A tool as the MCP endpoint serves it: already bound to what its module reads. */
export interface AgentTool extends ToolListing<z.ZodRawShape> {
  run: (args: z.infer<z.ZodObject<z.ZodRawShape>>, call: ToolCall) => Promise<unknown>;
}

/**
 * The `tool` of one module's files: it keeps each tool's argument types while the tools, of different shapes,
 * join one list typed by the module's context and services.
 */
export const toolsOf =
  <Ctx, Uses = unknown>() =>
  <Shape extends z.ZodRawShape>(definition: ModuleTool<Ctx, Uses, Shape>): ModuleTool<Ctx, Uses> =>
    definition as unknown as ModuleTool<Ctx, Uses>;

/** A module's tool bound to its module's view of the agent and its services. */
export const boundTool = <Ctx, Uses>(tool: ModuleTool<Ctx, Uses>, ctx: Ctx, uses: Uses): AgentTool => ({
  ...tool,
  run: (args, call) => tool.run(args, { ...call, ctx, uses }),
});
