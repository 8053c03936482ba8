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
