import { dnsLabelPattern, dnsSubdomainPattern } from '@binnacle/common';
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

/** An object's health with why (ADR 0126, docs/integrations/README.md). */
export const HealthWhySchema = Type.Object(
  {
    health: Type.Union(
      [Type.Literal('healthy'), Type.Literal('degraded'), Type.Literal('unhealthy'), Type.Literal('unknown')],
      { description: 'degraded: on its way (progressing, paused, renewing), not broken' },
    ),
    from: Type.Optional(
      Type.String({
        description: 'what decided: a condition type, `phase`, `state`, `generation`, `deletion`…',
      }),
    ),
    reason: Type.Optional(Type.String({ description: "the deciding condition's reason, or the phase" })),
    message: Type.Optional(
      Type.String({ description: "the deciding condition's message, cut to 500 characters" }),
    ),
  },
  { description: "the object's health and what decided it; built-in kinds carry the word only" },
);

/** A namespace name, in a path or a body (a DNS-1123 label). */
export const NamespaceParam = Type.String({ minLength: 1, maxLength: 63, pattern: dnsLabelPattern });

/** The name of an object whose kind requires a DNS-1123 subdomain: workloads, CronJobs, Pods, Nodes. */
export const ObjectNameParam = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: dnsSubdomainPattern,
});

/** A kind as a caller names it (resolved by discovery), in a path or a query. */
export const KindParam = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
  description: 'plural, singular, Kind or short name; `plural.group` also works',
});

/** The API group that picks one kind when several groups serve a kind of that name. */
export const GroupParam = Type.String({
  maxLength: 253,
  description: 'API group when a kind name exists in several ("" for core)',
});

/** What every action answers: what was done, in words, to which object. */
export const actionAnswer = {
  message: Type.String(),
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
};

/** A kind the cluster serves, as discovery names it: `name` is its resource (plural). */
export const apiKindFields = {
  group: Type.String(),
  version: Type.String(),
  kind: Type.String(),
  name: Type.String(),
  namespaced: Type.Boolean(),
};

/** A container image reference, for the images of debug containers and pods. */
export const ImageRef = Type.String({
  minLength: 1,
  maxLength: 512,
  pattern: '^[A-Za-z0-9][A-Za-z0-9./:@_-]*$',
  description: 'default: --debug-image',
});

/** `host:port`, a DNS name or IPv4 (or a bracketed IPv6) and a port. */
export const addressPattern = '^(\\[[0-9a-fA-F:.]+\\]|[A-Za-z0-9.-]+):[0-9]{1,5}$';
