import type { Answer } from '../../api/client.ts';
import { Badge, type Tone } from '../../ui/Badge.tsx';
import { mutedLook } from '../../ui/controls.tsx';
import { Table } from '../../ui/Table.tsx';
import { formatBytes, formatCores } from '../../ui/units.ts';

type Rightsized = Extract<
  Answer<'/api/metricsdb/rightsizing/{kind}/{namespace}/{name}'>,
  { available: true }
>;
export type ContainerRecommendation = Rightsized['containers'][number];
export type Verdict = ContainerRecommendation['cpu'];
export type Policy = Rightsized['policy'];

const verdictTone: Record<Verdict, Tone> = {
  'over-provisioned': 'warn',
  'under-provisioned': 'bad',
  'right-sized': 'good',
  'no-request': 'info',
  'no-data': 'muted',
};
const verdictWord: Record<Verdict, string> = {
  'over-provisioned': 'over-provisioned',
  'under-provisioned': 'under-provisioned',
  'right-sized': 'right-sized',
  'no-request': 'no request',
  'no-data': 'no data',
};

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge tone={verdictTone[verdict]}>{verdictWord[verdict]}</Badge>;
}

/** A saving in words: what lowering the requests frees, or what raising them takes (a negative saving). */
export function savingText(amount: number | undefined, format: (n: number) => string): string {
  if (amount === undefined || amount === 0) return '—';
  return amount > 0 ? `frees ${format(amount)}` : `needs ${format(-amount)} more`;
}

const resources = [
  {
    name: 'CPU',
    format: formatCores,
    used: (c: ContainerRecommendation) => c.usage.cpuP95Cores,
    usedWord: 'p95',
    request: (a: ContainerRecommendation['current']) => a.cpuRequestCores,
    limit: (a: ContainerRecommendation['current']) => a.cpuLimitCores,
    verdict: (c: ContainerRecommendation) => c.cpu,
    saving: (c: ContainerRecommendation) => c.saving.cpuCores,
  },
  {
    name: 'Memory',
    format: (n: number) => formatBytes(n),
    used: (c: ContainerRecommendation) => c.usage.memoryMaxBytes,
    usedWord: 'peak',
    request: (a: ContainerRecommendation['current']) => a.memoryRequestBytes,
    limit: (a: ContainerRecommendation['current']) => a.memoryLimitBytes,
    verdict: (c: ContainerRecommendation) => c.memory,
    saving: (c: ContainerRecommendation) => c.saving.memoryBytes,
  },
] as const;

const cell = 'py-1.5 pr-4 last:pr-0';
const number = `${cell} text-right tabular-nums`;

/**
 * Each container's CPU and memory: what it used, its request and limit now and the recommended ones, the verdict
 * and what the change saves over all the replicas.
 */
export function RecommendationTable({
  label,
  containers,
}: {
  label: string;
  containers: ContainerRecommendation[];
}) {
  const show = (value: number | undefined, format: (n: number) => string, none = 'not set') =>
    value === undefined ? <span className={mutedLook}>{none}</span> : format(value);
  return (
    <Table
      label={label}
      columns={[
        'Container',
        'Resource',
        { label: 'Used', right: true },
        { label: 'Request now', right: true },
        { label: 'Recommended request', right: true },
        { label: 'Limit now', right: true },
        { label: 'Recommended limit', right: true },
        'Verdict',
        { label: 'Saving', right: true },
      ]}
    >
      {containers.flatMap((c) =>
        resources.map((r, i) => (
          <tr key={`${c.container}-${r.name}`}>
            {i === 0 && (
              <th
                scope="rowgroup"
                rowSpan={resources.length}
                className={`${cell} align-top font-mono text-xs leading-5 font-normal`}
              >
                {c.container}
              </th>
            )}
            <td className={cell}>{r.name}</td>
            <td className={number}>{show(r.used(c), (n) => `${r.usedWord} ${r.format(n)}`, 'no samples')}</td>
            <td className={number}>{show(r.request(c.current), r.format)}</td>
            <td className={`${number} font-medium`}>{show(r.request(c.recommended), r.format, '—')}</td>
            <td className={number}>{show(r.limit(c.current), r.format)}</td>
            <td className={`${number} font-medium`}>{show(r.limit(c.recommended), r.format, '—')}</td>
            <td className={cell}>
              <VerdictBadge verdict={r.verdict(c)} />
            </td>
            <td className={number}>{savingText(r.saving(c), r.format)}</td>
          </tr>
        )),
      )}
    </Table>
  );
}

/** The rule the recommendations follow, as the agent states it in every answer. */
export function PolicyNote({ policy, window }: { policy: Policy; window: string }) {
  const percent = (n: number) => `${Math.round(n * 100)} %`;
  return (
    <p className={`text-xs ${mutedLook}`}>
      From the usage of the last {window}: CPU request = p{Math.round(policy.cpuPercentile * 100)} of the
      5-minute rate + {percent(policy.cpuHeadroom)}, memory request and limit = peak working set +{' '}
      {percent(policy.memoryHeadroom)}; at least {formatCores(policy.minCpuCores)} and{' '}
      {formatBytes(policy.minMemoryBytes)}. A request more than {percent(policy.tolerance)} above its
      recommendation is over-provisioned.
    </p>
  );
}
