import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { agentOnly } from '../../http/caller.ts';
import { PortForwards } from '../../scope/portforward/forwards.ts';
import { findObject, podPorts, servicePorts } from '../../scope/portforward/ports.ts';
import type { PortforwardContext } from './module.ts';

const tags = ['portforward'];
const Namespace = Type.String({ minLength: 1, maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' });
const Name = Type.String({ minLength: 1, maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' });
// Kubernetes port names (IANA_SVC_NAME) have at least one letter, so a string of digits is never a name.
const PortRef = Type.Union(
  [
    Type.Integer({ minimum: 1, maximum: 65535 }),
    Type.String({ minLength: 1, maxLength: 15, pattern: '^(?=.*[a-z])[a-z0-9]([-a-z0-9]*[a-z0-9])?$' }),
  ],
  { description: 'a port number or a port name' },
);
const Forward = Type.Object({
  id: Type.String(),
  namespace: Type.String(),
  pod: Type.String(),
  service: Type.Optional(Type.String()),
  port: PortRef,
  podPort: Type.Integer(),
  localPort: Type.Integer(),
  address: Type.String(),
  status: Type.Enum(['running', 'stopped', 'error']),
  error: Type.Optional(Type.String()),
  startedAt: Type.String(),
  connections: Type.Integer(),
  bytesIn: Type.Integer(),
  bytesOut: Type.Integer(),
});

export function portForwardRoutes(app: App, ctx: PortforwardContext): void {
  const forwards = new PortForwards(ctx);
  app.addHook('preClose', (done) => {
    forwards.close();
    done();
  });

  app.get(
    '/api/portforwards',
    {
      config: agentOnly,
      schema: {
        tags,
        summary: 'Port-forwards and their state',
        querystring: Query({}),
        response: { 200: Type.Object({ items: Type.Array(Forward) }), ...errorResponses },
      },
    },
    () => ({ items: forwards.list() }),
  );

  app.post(
    '/api/portforwards',
    {
      config: agentOnly,
      schema: {
        tags,
        summary: 'Forward a local port (127.0.0.1, picked when localPort is left out) to a pod or a service',
        querystring: Query({}),
        body: Type.Object(
          {
            namespace: Namespace,
            pod: Type.Optional(Name),
            service: Type.Optional(Name),
            port: PortRef,
            localPort: Type.Optional(Type.Integer({ minimum: 0, maximum: 65535 })),
          },
          { additionalProperties: false },
        ),
        response: { 201: Forward, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await forwards.create(request.body)),
  );

  app.delete(
    '/api/portforwards/:id',
    {
      config: agentOnly,
      schema: {
        tags,
        summary: 'Stop a port-forward (its connections close)',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        querystring: Query({}),
        response: { 200: Forward, ...errorResponses },
      },
    },
    (request) => forwards.delete(request.params.id),
  );

  app.get(
    '/api/portforwards/available/:type/:namespace/:name',
    {
      config: agentOnly,
      schema: {
        tags,
        summary: 'The ports a pod or a service offers to forward',
        params: Type.Object({ type: Type.Enum(['pod', 'service']), namespace: Namespace, name: Name }),
        querystring: Query({}),
        response: {
          200: Type.Object({
            ports: Type.Array(
              Type.Object({
                port: Type.Integer(),
                protocol: Type.String(),
                name: Type.Optional(Type.String()),
                containerName: Type.Optional(Type.String()),
                targetPort: Type.Optional(Type.Union([Type.Integer(), Type.String()])),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => {
      const { type, namespace, name } = request.params;
      const object = findObject(ctx, type === 'pod' ? 'pods' : 'services', namespace, name);
      return { ports: type === 'pod' ? podPorts(object) : servicePorts(object) };
    },
  );
}
