import type { KubeObject } from '@binnacle/common';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card, Empty } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import type { LabelSelector } from './format.ts';
import { Chips, Facts, KindLink, ListState, ObjectList, Selector, SubHeading, useObjects } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { type PolicyRule, ruleCells } from './words.ts';

/** The rules of a Role or ClusterRole as a table: API groups, resources, verbs, resource names. */
function RulesTable({ rules }: { rules: PolicyRule[] }) {
  if (rules.length === 0)
    return <Empty>No rules: it grants nothing (or only what aggregation fills in).</Empty>;
  return (
    <Table label="Rules" columns={['API groups', 'Resources', 'Verbs', 'Resource names']}>
      {rules.map((rule, index) => {
        const cells = ruleCells(rule);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rules have no identity but their place in the list.
          <tr key={index} className="align-top">
            <td className="py-1.5 pr-4 font-mono text-xs">{cells.apiGroups}</td>
            <td className="py-1.5 pr-4 font-mono text-xs">{cells.resources}</td>
            <td className="py-1.5 pr-4 font-mono text-xs">{cells.verbs}</td>
            <td className="py-1.5 font-mono text-xs">{cells.resourceNames}</td>
          </tr>
        );
      })}
    </Table>
  );
}

const aggregationLabel = 'rbac.authorization.k8s.io/aggregate-to-';

/** A Role or ClusterRole: its rules, how it aggregates, and the bindings that grant it. */
export function RoleDetails({ resource, namespace, name }: KindDetailsProps) {
  const aggregation = resource.aggregationRule as { clusterRoleSelectors?: LabelSelector[] } | undefined;
  const aggregatesInto = Object.entries(resource.metadata?.labels ?? {})
    .filter(([k, v]) => k.startsWith(aggregationLabel) && v === 'true')
    .map(([k]) => k.slice(aggregationLabel.length));
  return (
    <Card title="Rules">
      {resource.kind === 'ClusterRole' && (
        <div className="mb-3">
          <Facts
            label="Aggregation"
            facts={[
              [
                'Aggregates',
                aggregation ? (
                  <span key="a" className="flex flex-col gap-1">
                    {(aggregation.clusterRoleSelectors ?? []).map((s, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: selectors have no identity but their place.
                      <Selector key={i} selector={s} />
                    ))}
                  </span>
                ) : (
                  'no other roles'
                ),
              ],
              ['Aggregated into', <Chips key="i" terms={aggregatesInto} />],
            ]}
          />
        </div>
      )}
      <RulesTable rules={(resource.rules as PolicyRule[] | undefined) ?? []} />
      <SubHeading>Bound by</SubHeading>
      <RoleBindings kind={resource.kind ?? ''} namespace={namespace} name={name} />
    </Card>
  );
}

/** The bindings whose roleRef names this role (a ClusterRole's from any namespace as well as cluster-wide). */
function RoleBindings({ kind, namespace, name }: { kind: string; namespace?: string; name: string }) {
  const refers = (b: KubeObject) => {
    const ref = b.roleRef as { kind?: string; name?: string } | undefined;
    return ref?.kind === kind && ref.name === name;
  };
  const local = useObjects('rolebindings', namespace, { keep: refers });
  const cluster = useObjects('clusterrolebindings', undefined, { keep: refers });
  const bindings = [...(kind === 'ClusterRole' ? (cluster.data ?? []) : []), ...(local.data ?? [])];
  return (
    <ListState
      query={{ ...local, data: local.data && bindings, partial: local.partial || cluster.partial }}
      what="its bindings"
      empty="No binding grants it."
    >
      <ObjectList objects={bindings} label="Bindings" kinds />
    </ListState>
  );
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
  apiGroup?: string;
}

/** A RoleBinding or ClusterRoleBinding: the role it grants (a link) and to whom. */
export function BindingDetails({ resource, namespace }: KindDetailsProps) {
  const ref = resource.roleRef as { kind: string; name: string } | undefined;
  const subjects = (resource.subjects as Subject[] | undefined) ?? [];
  return (
    <Card title="Binding">
      <Facts
        label="Binding facts"
        facts={[
          [
            'Grants',
            ref && (
              <KindLink
                key="r"
                kind={ref.kind}
                namespace={ref.kind === 'Role' ? namespace : undefined}
                name={ref.name}
              />
            ),
          ],
          ['Scope', namespace ? `namespace ${namespace}` : 'the whole cluster'],
        ]}
      />
      <SubHeading>Subjects</SubHeading>
      {subjects.length === 0 ? (
        <Empty>No subjects: it grants nothing to anyone.</Empty>
      ) : (
        <Table label="Subjects" columns={['Kind', 'Name', 'Namespace']}>
          {subjects.map((s) => (
            <tr key={`${s.kind}/${s.namespace}/${s.name}`}>
              <td className="py-1.5 pr-4">{s.kind}</td>
              <td className="py-1.5 pr-4">
                {s.kind === 'ServiceAccount' ? (
                  <ObjectLink kind="ServiceAccount" namespace={s.namespace ?? namespace} name={s.name} />
                ) : (
                  <span className="font-mono text-xs">{s.name}</span>
                )}
              </td>
              <td className="py-1.5 font-mono text-xs">
                {s.namespace ?? (s.kind === 'ServiceAccount' ? namespace : '—')}
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
