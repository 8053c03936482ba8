import { Type } from 'typebox';

/** A Kubernetes object as the API returns it (validated by Kubernetes, not here). */
export const KubeObjectSchema = Type.Object(
  {
    apiVersion: Type.Optional(Type.String()),
    kind: Type.Optional(Type.String()),
    metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true, description: 'A Kubernetes object' },
);

const dnsLabel = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

/** A namespace in a path (a DNS-1123 label). */
export const NamespaceParam = Type.String({ minLength: 1, maxLength: 63, pattern: `^${dnsLabel}$` });

/** The name of an object whose kind requires a DNS-1123 subdomain: workloads, CronJobs, Pods, Nodes. */
export const ObjectNameParam = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: `^${dnsLabel}(\\.${dnsLabel})*$`,
});

/** What every action answers: what was done, in words, to which object. */
export const actionAnswer = {
  message: Type.String(),
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
};

/** A container image reference, for the images of debug containers and pods. */
export const ImageRef = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^[A-Za-z0-9][A-Za-z0-9./:@_-]*$',
  description: 'default: --debug-image',
});
