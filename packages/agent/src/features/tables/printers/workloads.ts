import type { StatusTone, TableCell } from '@binnacle/common';
import { kubectlDuration } from '@binnacle/common';
import {
  age,
  ageColumn,
  arr,
  column,
  containerCells,
  containersColumns,
  formatLabelSelector,
  formatLabels,
  type Json,
  kindName,
  num,
  obj,
  selectorString,
  since,
  str,
} from './format.ts';
import type { Printer } from './index.ts';

/** Printers of the apps and batch groups and their core ancestors (ADR 0053). */

const selectorColumn = column('SELECTOR', 'string', 1);
const wideColumns = [...containersColumns, selectorColumn];
const templateSpec = (template: unknown) => obj(obj(template).spec);

/** DESIRED, CURRENT, READY, AGE, then the wide template and selector: ReplicaSets and ReplicationControllers. */
function replicaPrinter(selector: (spec: Json) => string | null): Printer {
  return {
    columns: [
      column('DESIRED', 'integer'),
      column('CURRENT', 'integer'),
      column('READY', 'integer'),
      ageColumn,
      ...wideColumns,
    ],
    print(object) {
      const spec = obj(object.spec);
      const status = obj(object.status);
      return {
        cells: [
          num(spec.replicas),
          num(status.replicas),
          num(status.readyReplicas),
          age(object),
          ...containerCells(templateSpec(spec.template)),
          selector(spec),
        ],
      };
    },
  };
}

export const replicaSetPrinter = replicaPrinter((spec) => formatLabelSelector(spec.selector));
export const replicationControllerPrinter = replicaPrinter((spec) => formatLabels(spec.selector));

export const deploymentPrinter: Printer = {
  columns: [
    column('READY'),
    column('UP-TO-DATE', 'integer'),
    column('AVAILABLE', 'integer'),
    ageColumn,
    ...wideColumns,
  ],
  print(object) {
    const spec = obj(object.spec);
    const status = obj(object.status);
    return {
      cells: [
        `${num(status.readyReplicas)}/${num(spec.replicas)}`,
        num(status.updatedReplicas),
        num(status.availableReplicas),
        age(object),
        ...containerCells(templateSpec(spec.template)),
        selectorString(spec.selector),
      ],
    };
  },
};

export const statefulSetPrinter: Printer = {
  columns: [column('READY'), ageColumn, ...containersColumns],
  print(object) {
    const spec = obj(object.spec);
    return {
      cells: [
        `${num(obj(object.status).readyReplicas)}/${num(spec.replicas)}`,
        age(object),
        ...containerCells(templateSpec(spec.template)),
      ],
    };
  },
};

export const daemonSetPrinter: Printer = {
  columns: [
    column('DESIRED', 'integer'),
    column('CURRENT', 'integer'),
    column('READY', 'integer'),
    column('UP-TO-DATE', 'integer'),
    column('AVAILABLE', 'integer'),
    column('NODE SELECTOR'),
    ageColumn,
    ...wideColumns,
  ],
  print(object) {
    const spec = obj(object.spec);
    const status = obj(object.status);
    const podSpec = templateSpec(spec.template);
    return {
      cells: [
        num(status.desiredNumberScheduled),
        num(status.currentNumberScheduled),
        num(status.numberReady),
        num(status.updatedNumberScheduled),
        num(status.numberAvailable),
        formatLabels(podSpec.nodeSelector),
        age(object),
        ...containerCells(podSpec),
        formatLabelSelector(spec.selector),
      ],
    };
  },
};

const jobCondition = (conditions: Json[], type: string) =>
  conditions.find((condition) => condition.type === type)?.status === 'True';

/** The Job STATUS column, in the printer's order of precedence. */
export function jobStatus(job: { status?: unknown; metadata?: { deletionTimestamp?: string } }): string {
  const conditions = arr(obj(job.status).conditions);
  if (jobCondition(conditions, 'Complete')) return 'Complete';
  if (jobCondition(conditions, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (jobCondition(conditions, 'Suspended')) return 'Suspended';
  if (jobCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  if (jobCondition(conditions, 'SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

const jobTones: Record<string, StatusTone> = {
  Complete: 'ok',
  Failed: 'error',
  FailureTarget: 'error',
  Terminating: 'progress',
  Suspended: 'warning',
  SuccessCriteriaMet: 'progress',
  Running: 'progress',
};

function jobDuration(status: Json): TableCell {
  const start = str(status.startTime);
  if (start === '') return '';
  const end = str(status.completionTime);
  if (end === '') return since(start);
  return kubectlDuration(Date.parse(end) - Date.parse(start));
}

export const jobPrinter: Printer = {
  columns: [
    column('STATUS'),
    column('COMPLETIONS'),
    column('DURATION', 'string', 0, 'time the job ran, or has been running'),
    ageColumn,
    ...wideColumns,
  ],
  print(object) {
    const spec = obj(object.spec);
    const status = obj(object.status);
    const succeeded = num(status.succeeded);
    const parallelism = num(spec.parallelism);
    const completions =
      typeof spec.completions === 'number'
        ? `${succeeded}/${spec.completions}`
        : parallelism > 1
          ? `${succeeded}/1 of ${parallelism}`
          : `${succeeded}/1`;
    const text = jobStatus(object);
    return {
      cells: [
        text,
        completions,
        jobDuration(status),
        age(object),
        ...containerCells(templateSpec(spec.template)),
        formatLabelSelector(spec.selector),
      ],
      status: { text, tone: jobTones[text] ?? 'progress' },
    };
  },
};

export const cronJobPrinter: Printer = {
  columns: [
    column('SCHEDULE'),
    column('TIMEZONE'),
    column('SUSPEND'),
    column('ACTIVE', 'integer'),
    column('LAST SCHEDULE', 'date'),
    ageColumn,
    ...wideColumns,
  ],
  print(object) {
    const spec = obj(object.spec);
    const status = obj(object.status);
    const jobSpec = obj(obj(spec.jobTemplate).spec);
    return {
      cells: [
        str(spec.schedule),
        typeof spec.timeZone === 'string' ? spec.timeZone : null,
        typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>',
        arr(status.active).length,
        status.lastScheduleTime === undefined ? null : since(status.lastScheduleTime),
        age(object),
        ...containerCells(templateSpec(jobSpec.template)),
        formatLabelSelector(jobSpec.selector),
      ],
    };
  },
};

export const podTemplatePrinter: Printer = {
  columns: [column('CONTAINERS'), column('IMAGES'), column('POD LABELS')],
  print(object) {
    const template = obj(object.template);
    return {
      cells: [...containerCells(template.spec), formatLabels(obj(template.metadata).labels)],
    };
  },
};

export const controllerRevisionPrinter: Printer = {
  columns: [column('CONTROLLER'), column('REVISION', 'integer'), ageColumn],
  print(object) {
    const owner = object.metadata?.ownerReferences?.find((reference) => reference.controller === true);
    return {
      cells: [
        owner ? kindName(owner.apiVersion, owner.kind, owner.name) : null,
        num(object.revision),
        age(object),
      ],
    };
  },
};

export const podDisruptionBudgetPrinter: Printer = {
  columns: [
    column('MIN AVAILABLE'),
    column('MAX UNAVAILABLE'),
    column('ALLOWED DISRUPTIONS', 'integer'),
    ageColumn,
  ],
  print(object) {
    const spec = obj(object.spec);
    const intOrString = (value: unknown) =>
      typeof value === 'number' || typeof value === 'string' ? String(value) : 'N/A';
    return {
      cells: [
        intOrString(spec.minAvailable),
        intOrString(spec.maxUnavailable),
        num(obj(object.status).disruptionsAllowed),
        age(object),
      ],
    };
  },
};
