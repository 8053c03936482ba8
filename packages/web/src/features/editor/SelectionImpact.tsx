import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, type PostAnswer, post } from '../../api/client.ts';
import { Badge } from '../../ui/Badge.tsx';
import { buttonLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Empty, Loaded, StillLoading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';

// The "Selection impact" tab of an edit's review (docs/web.md, docs/adr/0124-selection-impact.md): which objects
// would gain or lose pods if the edited YAML were applied.

type Impact = PostAnswer<'/api/selection-impact'>;
type Change = Impact['changes'][number];
type Sample = Change['gained'];

/** How each kind of object selects pods, in a reader's words. */
const relationWords: Record<Change['relation'], string> = {
  service: 'endpoints',
  'disruption-budget': 'pods it protects',
  'policy-target': 'pods it applies to',
  'policy-ingress-peer': 'pods it lets in (ingress from)',
  'policy-egress-peer': 'pods it lets out to (egress to)',
  workload: 'pods its selector owns',
  autoscaler: "its target's pods (metrics)",
};

/** Pods named in a cell; the rest counted. */
const namedInCell = 3;

function Pods({ sample, verb }: { sample: Sample; verb: string }) {
  if (sample.count === 0) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  const shown = sample.pods.slice(0, namedInCell);
  return (
    <span title={sample.pods.map((p) => p.name).join(', ')}>
      {verb} {sample.count}:{' '}
      <span className="font-mono text-xs">
        {shown.map((p) => p.name).join(', ')}
        {sample.count > shown.length ? `, +${sample.count - shown.length} more` : ''}
      </span>
    </span>
  );
}

/** What to say above the table; `refusalShown`: the API server's refusal is on the page already, above. */
function Notices({ impact, refusalShown }: { impact: Impact; refusalShown: boolean }) {
  const { dryRun, mismatch, relabelled } = impact;
  return (
    <>
      {!dryRun.accepted && (
        <div
          role="note"
          className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <p className="font-medium">The API server refuses this change as it is</p>
          {!refusalShown && <p className="mt-1">{dryRun.error}</p>}
          <p className="mt-1">
            Below, what it would do to what selects which pods were it made (a Deployment&apos;s selector, for
            one, changes only by recreating it).
          </p>
        </div>
      )}
      {mismatch && (
        <p className="text-sm">
          <Badge tone="bad">selector</Badge> {mismatch}: its controller would not own the pods it creates.
        </p>
      )}
      {relabelled.count > 0 && (
        <p className="text-sm">
          Relabels {relabelled.count} pod{relabelled.count === 1 ? '' : 's'}
          {impact.object.kind === 'Pod' || impact.object.kind === 'Namespace'
            ? ''
            : ' (the pods a rollout of the new template replaces them with)'}
          .
        </p>
      )}
    </>
  );
}

function ChangeRow({ change }: { change: Change }) {
  const lostAll = change.after === 0 && change.before > 0;
  return (
    <tr>
      <td className="py-1.5 pr-4">
        <span className="text-xs text-slate-600 dark:text-slate-400">{change.kind}</span>{' '}
        <ObjectLink kind={change.kind} namespace={change.namespace} name={change.name} />
      </td>
      <td className="py-1.5 pr-4">{relationWords[change.relation]}</td>
      <td className="py-1.5 pr-4 text-right tabular-nums">
        {change.before} → {change.after}
        {lostAll && (
          <>
            {' '}
            <Badge tone="bad">none left</Badge>
          </>
        )}
      </td>
      <td className="py-1.5 pr-4">
        <Pods sample={change.gained} verb="gains" />
      </td>
      <td className="py-1.5">
        <Pods sample={change.lost} verb="loses" />
      </td>
    </tr>
  );
}

/** What the edit in `yaml` would change in which objects select which pods. */
export function SelectionImpact({ yaml, refusalShown = false }: { yaml: string; refusalShown?: boolean }) {
  const impact = useQuery({
    queryKey: ['selection-impact', yaml],
    queryFn: () => post('/api/selection-impact', { body: { yaml } }),
    retry: false,
  });
  return (
    <Loaded query={impact} what="the selection impact">
      {(answer) => (
        <div className="flex flex-col gap-3">
          <Notices impact={answer} refusalShown={refusalShown} />
          <StillLoading kinds={answer.loading ?? []} />
          {answer.changes.length === 0 ? (
            <Empty>
              No Service, PodDisruptionBudget, NetworkPolicy, workload or autoscaler gains or loses a pod.
            </Empty>
          ) : (
            <div className="overflow-x-auto">
              <Table
                label="Objects that gain or lose pods"
                columns={[
                  'Object',
                  'What it selects',
                  { label: 'Pods now → after', right: true },
                  'Gains',
                  'Loses',
                ]}
              >
                {answer.changes.map((change) => (
                  <ChangeRow
                    key={`${change.kind}/${change.namespace}/${change.name}/${change.relation}`}
                    change={change}
                  />
                ))}
              </Table>
            </div>
          )}
        </div>
      )}
    </Loaded>
  );
}

/**
 * Under a dry run the API server refused as invalid (a Deployment's template its immutable selector no longer
 * matches): the selection impact of the edit as sent, on request, since it says what such a change would break.
 */
export function RefusedEditImpact({ error, yaml }: { error: unknown; yaml: string | undefined }) {
  const [shown, setShown] = useState(false);
  if (!(error instanceof ApiError) || error.code !== 'invalid' || yaml === undefined) return null;
  if (!shown)
    return (
      <div>
        <button type="button" className={buttonLook} onClick={() => setShown(true)}>
          Selection impact of this edit
        </button>
      </div>
    );
  return (
    <section aria-label="Selection impact" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold">Selection impact</h3>
      <SelectionImpact yaml={yaml} refusalShown />
    </section>
  );
}
