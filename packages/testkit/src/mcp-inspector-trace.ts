/**
 * Loaded into the MCP Inspector's CLI (`--import`) by runInspector: writes one stderr line per HTTP exchange
 * (`http: GET /c/…/mcp → 405`), so a run that prints a surprising answer shows what the server said to it.
 * The CLI swallows transport errors after connecting (an empty tool list, exit 0); this is how they surface.
 */
const send = globalThis.fetch;

globalThis.fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
  const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
  const url = new URL(input instanceof Request ? input.url : String(input));
  const line = (outcome: string) => process.stderr.write(`http: ${method} ${url.pathname} → ${outcome}\n`);
  try {
    const response = await send(input, init);
    line(String(response.status));
    return response;
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    line(cause ?? (error as Error).message);
    throw error;
  }
};
