import { condition, metadata, type StateFixture, withStatus } from './fixture.ts';

/**
 * Gateway API objects in each state, their statuses in the shapes a Gateway controller writes them
 * (sigs.k8s.io/gateway-api v1.6.3: apis/v1/gatewayclass_types.go, gateway_types.go, shared_types.go —
 * GatewayClass Accepted; Gateway Accepted, Programmed and per-listener conditions; a route's per-parent Accepted
 * and ResolvedRefs with BackendNotFound).
 */
const group = 'gateway.networking.k8s.io';
const controllerName = 'example.net/gateway-controller';
const g1 = { observedGeneration: 1 };

type Status = Record<string, unknown>;

/** A GatewayClass of `controller`, with the parameters `spec` adds. */
export const gatewayClass = (name: string, controller: string, status?: Status, spec: Status = {}) => ({
  apiVersion: `${group}/v1`,
  kind: 'GatewayClass',
  metadata: metadata(name),
  spec: { controllerName: controller, ...spec },
  ...withStatus(status),
});

/** A Gateway of class `className` with one HTTP listener on port 80. */
export const gateway = (name: string, namespace: string, className: string, status?: Status) => ({
  apiVersion: `${group}/v1`,
  kind: 'Gateway',
  metadata: metadata(name, namespace),
  spec: { gatewayClassName: className, listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] },
  ...withStatus(status),
});

/** A backend of a route's rule: a Service and port, for requests under `pathPrefix` when given. */
export interface RouteBackend {
  name: string;
  port: number;
  pathPrefix?: string;
}

/** An HTTPRoute or GRPCRoute attached to Gateway `gatewayName`, one rule per backend. */
export const gatewayRoute = (
  kind: 'HTTPRoute' | 'GRPCRoute',
  name: string,
  namespace: string,
  gatewayName: string,
  backends: RouteBackend[],
  status?: Status,
) => ({
  apiVersion: `${group}/v1`,
  kind,
  metadata: metadata(name, namespace),
  spec: {
    parentRefs: [{ name: gatewayName }],
    rules: backends.map(({ name: backend, port, pathPrefix }) => ({
      ...(pathPrefix ? { matches: [{ path: { type: 'PathPrefix', value: pathPrefix } }] } : {}),
      backendRefs: [{ name: backend, port }],
    })),
  },
  ...withStatus(status),
});

/** A route's status as `controller` writes it for its one parent Gateway. */
export const routeStatus = (controller: string, parentRef: object, conditions: object[]) => ({
  parents: [{ parentRef, controllerName: controller, conditions }],
});

export function gatewayApiStates(namespace: string, prefix: string): StateFixture[] {
  const ownGateway = (name: string, conditions: object[], listenerConditions: object[]) =>
    gateway(name, namespace, `${prefix}-class`, {
      conditions,
      listeners: [
        {
          name: 'http',
          attachedRoutes: 1,
          supportedKinds: [{ group, kind: 'HTTPRoute' }],
          conditions: listenerConditions,
        },
      ],
    });
  const listenerUp = [
    condition('Accepted', 'True', 'Accepted', 'Listener is accepted', g1),
    condition('ResolvedRefs', 'True', 'ResolvedRefs', 'References are resolved', g1),
    condition('Programmed', 'True', 'Programmed', 'Listener is programmed', g1),
  ];
  /** A route to `backend` (the healthy one's, `web`, is a Service the tests create; the others' are missing). */
  const route = (kind: 'HTTPRoute' | 'GRPCRoute', name: string, backend: string, conditions?: object[]) =>
    gatewayRoute(
      kind,
      name,
      namespace,
      `${prefix}-gateway`,
      [{ name: backend, port: 8080 }],
      conditions &&
        routeStatus(controllerName, { group, kind: 'Gateway', name: `${prefix}-gateway` }, conditions),
    );
  return [
    {
      state: 'healthy',
      object: gatewayClass(`${prefix}-class`, controllerName, {
        conditions: [condition('Accepted', 'True', 'Accepted', 'Valid GatewayClass', g1)],
      }),
      expected: { health: 'healthy', from: 'Accepted', reason: 'Accepted' },
    },
    {
      state: 'failed',
      object: gatewayClass(
        `${prefix}-class-bad`,
        controllerName,
        {
          conditions: [
            condition('Accepted', 'False', 'InvalidParameters', 'ConfigMap "absent" not found', g1),
          ],
        },
        { parametersRef: { group: '', kind: 'ConfigMap', name: 'absent', namespace } },
      ),
      expected: { health: 'unhealthy', from: 'Accepted', reason: 'InvalidParameters' },
    },
    {
      state: 'healthy',
      object: ownGateway(
        `${prefix}-gateway`,
        [
          condition('Accepted', 'True', 'Accepted', 'Gateway is accepted', g1),
          condition('Programmed', 'True', 'Programmed', 'Gateway is programmed', g1),
        ],
        listenerUp,
      ),
      expected: { health: 'healthy' },
    },
    {
      state: 'progressing',
      object: ownGateway(
        `${prefix}-gateway-pending`,
        [
          condition('Accepted', 'True', 'Accepted', 'Gateway is accepted', g1),
          condition('Programmed', 'False', 'Pending', 'Waiting for the load balancer', g1),
        ],
        listenerUp,
      ),
      expected: { health: 'degraded', from: 'Programmed', reason: 'Pending' },
    },
    {
      state: 'failed',
      object: ownGateway(
        `${prefix}-gateway-noaddress`,
        [
          condition('Accepted', 'True', 'Accepted', 'Gateway is accepted', g1),
          condition('Programmed', 'False', 'AddressNotAssigned', 'No address could be assigned', g1),
        ],
        listenerUp,
      ),
      expected: { health: 'unhealthy', from: 'Programmed', reason: 'AddressNotAssigned' },
    },
    {
      state: 'healthy',
      object: route('HTTPRoute', `${prefix}-route`, 'web', [
        condition('Accepted', 'True', 'Accepted', 'Route is accepted', g1),
        condition('ResolvedRefs', 'True', 'ResolvedRefs', 'All references resolved', g1),
      ]),
      expected: { health: 'healthy' },
    },
    {
      state: 'failed',
      object: route('HTTPRoute', `${prefix}-route-nobackend`, 'absent', [
        condition('Accepted', 'True', 'Accepted', 'Route is accepted', g1),
        condition('ResolvedRefs', 'False', 'BackendNotFound', `Service "${namespace}/absent" not found`, g1),
      ]),
      expected: {
        health: 'unhealthy',
        from: `ResolvedRefs by ${prefix}-gateway`,
        reason: 'BackendNotFound',
      },
    },
    {
      state: 'progressing',
      object: route('HTTPRoute', `${prefix}-route-new`, 'web'),
      expected: { health: 'degraded', from: 'parents', reason: 'Pending' },
    },
    {
      state: 'failed',
      object: route('GRPCRoute', `${prefix}-grpc`, 'grpc', [
        condition('Accepted', 'False', 'NotAllowedByListeners', 'No listener allows GRPCRoute', g1),
        condition('ResolvedRefs', 'True', 'ResolvedRefs', 'All references resolved', g1),
      ]),
      expected: {
        health: 'unhealthy',
        from: `Accepted by ${prefix}-gateway`,
        reason: 'NotAllowedByListeners',
      },
    },
  ];
}
