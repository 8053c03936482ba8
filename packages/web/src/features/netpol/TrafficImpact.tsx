import { useQuery } from '@tanstack/react-query';
import { type PostAnswer, post } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { PolicyLink } from './PolicyLink.tsx';

export type Impact = PostAnswer<'/api/network-policies/impact'>;
type FlowImpact = Impact['newlyDenied'][number];
type MatrixChange = Impact['matrices'][number];

/** A change of NetworkPolicies as the impact route takes it: new or edited ones as YAML, deleted ones by name. */
export interface PolicyChange {
  yaml?: string;
  delete?: string[];
}

const endText = (end: FlowImpact['source']) => (end.namespace ? `${end.namespace}/${end.name}` : end.name);
const portText = (flow: FlowImpact) => `${flow.protocol}${flow.port === undefined ? '' : ` ${flow.port}`}`;

/** The rule that decides, as `ns/name ingress[0]`, or the isolating policy's name with its direction. */
function DecidingRules({ flow }: { flow: FlowImpact }) {
  if (flow.decidedBy.length === 0) return <span className={mutedLook}>no policy selects these pods</span>;
  return (
    <ul className="flex flex-col gap-0.5">
      {flow.decidedBy.map((rule) => (
        <li key={`${rule.policy}|${rule.direction}|${rule.ruleIndex ?? ''}`}>
          <PolicyLink policy={rule.policy} />{' '}
          <span className="font-mono text-xs">
            {rule.direction}
            {rule.ruleIndex === undefined ? ' (isolates)' : `[${rule.ruleIndex}]`}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The flows one side of the change touches: each pair and port, its flows, the rule deciding it and why. */
function FlowTable({ label, flows }: { label: string; flows: FlowImpact[] }) {
  return (
    <div className="break-words">
      <Table
        label={label}
        columns={['Source', 'Destination', 'Port', { label: 'Flows', right: true }, 'Decided by']}
      >
        {flows.map((flow) => (
          <tr key={`${flow.source.id}|${flow.destination.id}|${portText(flow)}`} className="align-top">
            <td className="py-1.5 pr-4 font-mono text-xs">{endText(flow.source)}</td>
            <td className="py-1.5 pr-4 font-mono text-xs">{endText(flow.destination)}</td>
            <td className="py-1.5 pr-4 whitespace-nowrap">{portText(flow)}</td>
            <td className="py-1.5 pr-4 text-right">
              {flow.flows}
              {flow.dropped > 0 && (
                <span className={`block text-xs ${mutedLook}`}>{flow.dropped} dropped</span>
              )}
            </td>
            <td className="py-1.5" title={flow.reason}>
              <DecidingRules flow={flow} />
              {flow.after === 'partly' && (
                <span className={`text-xs ${mutedLook}`}>some of the workload's pods only</span>
              )}
            </td>
          </tr>
        ))}
      </Table>
    </div>
  );
}

const cellMark = { true: '✓', false: '✕' };
const shortId = (id: string) => id.split('/').slice(-1)[0] ?? id;

/** The namespace's workloads to one another, before → after; a changed cell stands out and says so in words. */
function MatrixDiff({ matrix }: { matrix: MatrixChange }) {
  const changed = matrix.cells.flat().filter((c) => c.before !== c.after).length;
  return (
    <div className="flex flex-col gap-1">
      <h4 className="text-sm font-medium">
        Reachability in {matrix.namespace}, before → after{' '}
        <span className={`font-normal ${mutedLook}`}>
          ({changed === 0 ? 'unchanged' : `${changed} pair${changed === 1 ? '' : 's'} changed`}; any TCP port)
        </span>
      </h4>
      <section
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide matrix scrolls sideways and must take keyboard focus.
        tabIndex={0}
        aria-label={`Reachability matrix of ${matrix.namespace}`}
        className="overflow-x-auto"
      >
        <table className="text-xs" aria-label={`Reachability in ${matrix.namespace} before and after`}>
          <thead>
            <tr>
              <th scope="col">
                <span className="sr-only">Source \ destination</span>
              </th>
              {matrix.workloads.map((id) => (
                <th key={id} scope="col" className="px-1 pb-1 font-medium" title={id}>
                  {shortId(id)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.cells.map((row, s) => {
              const source = matrix.workloads[s] as string;
              return (
                <tr key={source}>
                  <th scope="row" className="pr-2 text-right font-medium" title={source}>
                    {shortId(source)}
                  </th>
                  {row.map((cell, d) => {
                    const destination = matrix.workloads[d] as string;
                    const moved = cell.before !== cell.after;
                    const look = moved
                      ? cell.after
                        ? 'bg-emerald-200 text-emerald-950 ring-2 ring-emerald-700 dark:bg-emerald-800 dark:text-emerald-50'
                        : 'bg-red-200 text-red-950 ring-2 ring-red-700 dark:bg-red-800 dark:text-red-50'
                      : 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200';
                    const words = `${shortId(source)} to ${shortId(destination)}: ${cell.before ? 'allowed' : 'denied'}${moved ? `, then ${cell.after ? 'allowed' : 'denied'}` : ', unchanged'}`;
                    return (
                      <td key={destination} className="p-0.5">
                        <span
                          title={words}
                          className={`flex h-7 w-12 items-center justify-center rounded font-semibold ${look}`}
                        >
                          <span aria-hidden="true">
                            {cellMark[`${cell.before}`]}
                            {moved ? ` → ${cellMark[`${cell.after}`]}` : ''}
                          </span>
                          <span className="sr-only">{words}</span>
                        </span>
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      {matrix.truncated && (
        <p className={`text-xs ${mutedLook}`}>The first {matrix.workloads.length} workloads by name.</p>
      )}
    </div>
  );
}

/** What the traffic source gave: where from and over which window, or why it gave nothing. */
function TrafficLine({ impact }: { impact: Impact }) {
  const { traffic } = impact;
  if (!traffic.available)
    return (
      <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
        No observed traffic to judge: {traffic.reason}. The reachability below still holds.
      </p>
    );
  const minutes = Math.round((Date.parse(traffic.to) - Date.parse(traffic.from)) / 60_000);
  const source = traffic.source.charAt(0).toUpperCase() + traffic.source.slice(1);
  return (
    <p className={`text-sm ${mutedLook}`}>
      {impact.judged} observed flow{impact.judged === 1 ? '' : 's'} (workload pair and port) from {source}{' '}
      over the last {minutes} min: <strong>{impact.newlyDenied.length} newly denied</strong>,{' '}
      <strong>{impact.newlyAllowed.length} newly allowed</strong>, {impact.unchanged} unchanged
      {impact.unjudged.length > 0 ? `, ${impact.unjudged.length} not judged` : ''}
      {traffic.truncated ? ' (the busiest pairs only)' : ''}.
    </p>
  );
}

/** An impact as the route answers it: the flows it newly denies and allows, and each namespace's matrix. */
export function ImpactView({ impact }: { impact: Impact }) {
  return (
    <div className="flex flex-col gap-4">
      <TrafficLine impact={impact} />
      {impact.newlyDenied.length > 0 && (
        <section aria-label="Newly denied flows" className="flex flex-col gap-1">
          <h4 className="text-sm font-medium text-red-800 dark:text-red-300">Newly denied</h4>
          <FlowTable label="Newly denied" flows={impact.newlyDenied} />
        </section>
      )}
      {impact.newlyAllowed.length > 0 && (
        <section aria-label="Newly allowed flows" className="flex flex-col gap-1">
          <h4 className="text-sm font-medium text-emerald-800 dark:text-emerald-300">Newly allowed</h4>
          <FlowTable label="Newly allowed" flows={impact.newlyAllowed} />
        </section>
      )}
      {impact.unjudged.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer">Not judged ({impact.unjudged.length})</summary>
          <ul className="mt-1 flex flex-col gap-0.5">
            {impact.unjudged.map((flow) => (
              <li key={`${flow.source.id}|${flow.destination.id}|${flow.protocol}|${flow.port ?? ''}`}>
                <span className="font-mono text-xs">
                  {endText(flow.source)} → {endText(flow.destination)} {flow.protocol} {flow.port ?? ''}
                </span>
                : {flow.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      {impact.matrices.map((matrix) => (
        <MatrixDiff key={matrix.namespace} matrix={matrix} />
      ))}
    </div>
  );
}

/** The traffic impact of a change, asked of the agent (read only: nothing is applied). */
export function TrafficImpact({ change }: { change: PolicyChange }) {
  const impact = useQuery({
    queryKey: ['network-policies', 'impact', change],
    queryFn: () => post('/api/network-policies/impact', { body: change }),
    retry: false,
  });
  return (
    <Loaded query={impact} what="the traffic impact">
      {(answer) => <ImpactView impact={answer} />}
    </Loaded>
  );
}
