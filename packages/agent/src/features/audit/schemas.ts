import { Type } from 'typebox';

const Severity = Type.Union([Type.Literal('warning'), Type.Literal('danger')]);
const Category = Type.Union([
  Type.Literal('Security'),
  Type.Literal('Reliability'),
  Type.Literal('Efficiency'),
]);
const Counts = Type.Object({ passing: Type.Integer(), warning: Type.Integer(), danger: Type.Integer() });

const Finding = Type.Object({
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  checkId: Type.String(),
  category: Category,
  severity: Severity,
  message: Type.String(),
  container: Type.Optional(Type.String()),
});

export const CheckMeta = Type.Object({
  id: Type.String(),
  title: Type.String(),
  category: Category,
  description: Type.String(),
  remediation: Type.String(),
  defaultSeverity: Severity,
  frameworks: Type.Array(Type.String()),
  references: Type.Array(Type.String()),
  aliases: Type.Array(Type.String(), { description: "other tools' ids, polaris:<id> for Fairwinds Polaris" }),
  appliesTo: Type.Array(Type.String()),
});

export const AuditReport = Type.Object({
  summary: Type.Object({
    ...Counts.properties,
    categories: Type.Object({ Security: Counts, Reliability: Counts, Efficiency: Counts }),
  }),
  findings: Type.Array(Finding),
  groups: Type.Array(
    Type.Object({
      kind: Type.String(),
      namespace: Type.Optional(Type.String()),
      name: Type.String(),
      warning: Type.Integer(),
      danger: Type.Integer(),
      findings: Type.Array(Finding),
    }),
  ),
  namespaces: Type.Array(Type.Object({ namespace: Type.Optional(Type.String()), ...Counts.properties }), {
    description:
      'counts per namespace, most dangerous first (no namespace: the cluster-scoped objects); objects without a finding pass',
  }),
  checks: Type.Record(Type.String(), CheckMeta),
  loading: Type.Array(Type.String()),
});

export const ObjectAudit = Type.Object({
  kind: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  findings: Type.Array(Finding),
  checks: Type.Record(Type.String(), CheckMeta),
});

export { Category, Severity };
