import type { KubeObject } from '@binnacle/common';
import { Badge, type Tone } from '../../../ui/Badge.tsx';
import { ObjectLink } from '../../../ui/ObjectLink.tsx';
import { Card } from '../../../ui/states.tsx';
import { Table } from '../../../ui/Table.tsx';
import { cronWords } from './cron-words.ts';
import { type Condition, duration } from './format.ts';
import { ConditionsTable, Facts, ListState, Moment, ownedBy, SubHeading, useObjects } from './parts.tsx';
import type { KindDetailsProps } from './registry.ts';
import { jobState } from './words.ts';
import { OwnedPods, TemplateImages } from './workloads.tsx';

const stateTone: Record<ReturnType<typeof jobState>, Tone> = {
  Complete: 'good',
  Failed: 'bad',
  Suspended: 'muted',
  Running: 'info',
};

const JobState = ({ job }: { job: KubeObject }) => (
  <Badge tone={stateTone[jobState(job)]}>{jobState(job)}</Badge>
);

const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** A Job: how far it got against what it must complete, when it ran and for how long, and its pods. */
export function JobDetails({ resource, namespace = '' }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const status = resource.status ?? {};
  const start = status.startTime as string | undefined;
  const end = status.completionTime as string | undefined;
  return (
    <>
      <Card title="Job">
        <Facts
          label="Job facts"
          facts={[
            ['State', <JobState key="s" job={resource} />],
            [
              'Completions',
              `${num(status.succeeded)} of ${typeof spec.completions === 'number' ? spec.completions : 1}`,
            ],
            ['Parallelism', String(spec.parallelism ?? 1)],
            [
              'Pods',
              `${num(status.active)} active, ${num(status.succeeded)} succeeded, ${num(status.failed)} failed`,
            ],
            ['Backoff limit', String(spec.backoffLimit ?? 6)],
            ['Started', start && <Moment key="b" at={start} />],
            ['Completed', end && <Moment key="e" at={end} />],
            ['Duration', duration(start, end)],
            ['Images', <TemplateImages key="i" template={spec.template} />],
          ]}
        />
        <SubHeading>Conditions</SubHeading>
        <ConditionsTable conditions={status.conditions as Condition[] | undefined} />
      </Card>
      <OwnedPods owner={resource} namespace={namespace} />
    </>
  );
}

/** A CronJob: its schedule and policy, when it last ran, and the Jobs it keeps, newest first. */
export function CronJobDetails({ resource, namespace = '' }: KindDetailsProps) {
  const spec = resource.spec ?? {};
  const status = resource.status ?? {};
  const jobs = useObjects('jobs', namespace, { keep: ownedBy(resource) });
  const history = [...(jobs.data ?? [])].sort((a, b) =>
    String(b.metadata?.creationTimestamp).localeCompare(String(a.metadata?.creationTimestamp)),
  );
  const template = (spec.jobTemplate as { spec?: { template?: unknown } } | undefined)?.spec?.template;
  const inWords = cronWords(String(spec.schedule ?? ''));
  return (
    <>
      <Card title="Schedule">
        <Facts
          label="Schedule facts"
          facts={[
            [
              'Schedule',
              <span key="s">
                <span className="font-mono">{String(spec.schedule)}</span>
                {inWords ? `: ${inWords}` : ''}
                {spec.timeZone ? ` (${String(spec.timeZone)})` : ' (the controller’s time zone)'}
              </span>,
            ],
            [
              'Suspended',
              spec.suspend === true ? (
                <Badge key="p" tone="warn">
                  yes: no new runs
                </Badge>
              ) : (
                'no'
              ),
            ],
            ['Concurrency', String(spec.concurrencyPolicy ?? 'Allow')],
            [
              'Start deadline',
              spec.startingDeadlineSeconds ? `${String(spec.startingDeadlineSeconds)}s` : undefined,
            ],
            ['Last scheduled', <Moment key="l" at={status.lastScheduleTime as string | undefined} />],
            ['Last succeeded', <Moment key="o" at={status.lastSuccessfulTime as string | undefined} />],
            [
              'History kept',
              `${String(spec.successfulJobsHistoryLimit ?? 3)} succeeded, ${String(spec.failedJobsHistoryLimit ?? 1)} failed`,
            ],
            ['Images', <TemplateImages key="i" template={template} />],
          ]}
        />
      </Card>
      <Card title="Jobs">
        <ListState
          query={{ ...jobs, data: jobs.data && history }}
          what="its jobs"
          empty="No jobs kept: it has not run yet, or its history is empty."
        >
          <Table label="Jobs" columns={['Name', 'State', 'Completions', 'Started', 'Duration']}>
            {history.map((job) => (
              <tr key={job.metadata?.uid}>
                <td className="py-1.5 pr-4">
                  <ObjectLink kind="Job" namespace={namespace} name={job.metadata?.name ?? ''} />
                </td>
                <td className="py-1.5 pr-4">
                  <JobState job={job} />
                </td>
                <td className="py-1.5 pr-4 tabular-nums">
                  {num(job.status?.succeeded)}/
                  {typeof job.spec?.completions === 'number' ? job.spec.completions : 1}
                </td>
                <td className="py-1.5 pr-4">
                  <Moment at={job.status?.startTime as string | undefined} />
                </td>
                <td className="py-1.5">
                  {duration(
                    job.status?.startTime as string | undefined,
                    job.status?.completionTime as string | undefined,
                  ) ?? '—'}
                </td>
              </tr>
            ))}
          </Table>
        </ListState>
      </Card>
    </>
  );
}
