import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { errorsDoc, openApiSnapshot, serializeOpenApi, withErrorTable } from '../../../scripts/api-docs.ts';
import { apiTypes, decodedStreams, webApiTypesSource } from '../../web/scripts/api-types.ts';
import { agentOpenApiDocument } from './openapi-document.ts';

const hint = 'run `npm run api:docs` and commit the result';

interface StreamEventSchema {
  properties: { event?: { const?: string; enum?: string[] }; data: object };
}
type StreamSchema = StreamEventSchema & { anyOf?: StreamEventSchema[] };

describe('API reference files', () => {
  it(`docs/api/agent-openapi.json is the document the routes generate (${hint})`, async () => {
    expect(serializeOpenApi(await agentOpenApiDocument())).toBe(await readFile(openApiSnapshot, 'utf8'));
  });

  it("the web UI's client types are those of the agent's document (sh scripts/bootstrap.sh writes them)", async () => {
    const doc = JSON.parse(await readFile(openApiSnapshot, 'utf8'));
    expect(await webApiTypesSource('agent', doc)).toBe(await readFile(apiTypes.agent.types, 'utf8'));
  });

  it('a text/event-stream answer lists its events, each data a JSON string with its schema', async () => {
    const doc = await agentOpenApiDocument();
    const streams = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      Object.values(item as Record<string, { responses?: Record<string, { content?: object }> }>).flatMap(
        (operation) =>
          Object.entries(operation.responses?.['200']?.content ?? {})
            .filter(([type]) => type === 'text/event-stream')
            .map(([, media]) => ({ path, schema: (media as { schema: StreamSchema }).schema })),
      ),
    );
    expect(streams.map((s) => s.path).sort()).toEqual(
      [
        '/api/events/stream',
        '/api/pkgmgr/releases/{namespace}/{name}/rollback-stream',
        '/api/pkgmgr/releases/{namespace}/{name}/upgrade-stream',
        '/api/pkgmgr/releases/install-stream',
        '/api/pods/{namespace}/{name}/logs/stream',
        '/api/tables/{kind}/stream',
        '/api/traffic/flows/stream',
        '/api/workloads/{kind}/{namespace}/{name}/logs/stream',
      ].sort(),
    );
    for (const { schema } of streams)
      for (const event of schema.anyOf ?? [schema])
        expect(event.properties.data).toMatchObject({
          type: 'string',
          contentMediaType: 'application/json',
          contentSchema: expect.any(Object),
        });
    const named = streams.filter((s) => s.schema.anyOf);
    expect(named.length).toBe(5);
    for (const { schema } of named)
      expect(schema.anyOf?.map((e) => e.properties.event?.enum?.[0] ?? e.properties.event?.const)).toEqual(
        expect.arrayContaining(['heartbeat', 'end']),
      );
  });

  it("the web UI's types read a stream event's data as its schema, as the page has it after JSON.parse", () => {
    const event = {
      type: 'object',
      properties: { event: { const: 'patch' }, data: { type: 'string', contentSchema: { type: 'integer' } } },
    };
    const doc = {
      paths: {
        '/s': {
          get: { responses: { '200': { content: { 'text/event-stream': { schema: { anyOf: [event] } } } } } },
        },
      },
    };
    expect(decodedStreams(doc)).toEqual({
      paths: {
        '/s': {
          get: {
            responses: {
              '200': {
                content: {
                  'text/event-stream': {
                    schema: {
                      anyOf: [{ ...event, properties: { ...event.properties, data: { type: 'integer' } } }],
                    },
                  },
                },
              },
            },
          },
        },
      },
    });
    expect(event.properties.data.type).toBe('string');
  });

  it(`docs/api/errors.md lists exactly the codes of @binnacle/common (${hint})`, async () => {
    const current = await readFile(errorsDoc, 'utf8');
    expect(withErrorTable(current)).toBe(current);
  });
});
