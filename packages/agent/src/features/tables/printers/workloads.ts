import type { KubeObject, StatusTone, TableCell, TableColumn } from '@binnacle/common';
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
import type { PrintedRow, Printer } from './index.ts';

/** Printers of the apps and batch groups and their core ancestors (ADR 0053). */

const wideColumns = [...containersColumns, column('SELECTOR', 'string', 1)];

interface TemplatedKind {
  /** The columns before AGE. */
  columns: TableColumn[];
  cells(spec: Json, status: Json, object: KubeObject): TableCell[];
  /** The object that holds `template` and `selector`: the spec itself but for CronJobs. */
  templateHolder?: (spec: Json) => Json;
  selector: (holder: Json) => TableCell;
  status?: (object: KubeObject) => PrintedRow['status'];
}

/** The shape of every workload printer: its own columns, AGE, then (wide) the pod template and the selector. */
function templatedPrinter(kind: TemplatedKind): Printer {
  return {
    columns: [...kind.columns, ageColumn, ...wideColumns],
    print(object) {
      const spec = obj(object.spec);
      const holder = kind.templateHolder?.(spec) ?? spec;
      const row: PrintedRow = {
        cells: [
          ...kind.cells(spec, obj(object.status), object),
          age(object),
          ...containerCells(obj(obj(holder.template).spec)),
          kind.selector(holder),
        ],
      };
      const status = kind.status?.(object);
      if (status) row.status = status;
      return row;
    },
  };
}

const replicaColumns = [
  column('DESIRED', 'integer'),
  column('CURRENT', 'integer'),
  column('READY', 'integer'),
];
const replicaCells = (spec: Json, status: Json) => [
  num(spec.replicas),
  num(status.replicas),
  num(status.readyReplicas),
];

export const replicaSetPrinter = templatedPrinter({
  columns: replicaColumns,
  cells: replicaCells,
  selector: (spec) => formatLabelSelector(spec.selector),
});

export const replicationControllerPrinter = templatedPrinter({
  columns: replicaColumns,
  cells: replicaCells,
  selector: (spec) => formatLabels(spec.selector),
});

export const deploymentPrinter = templatedPrinter({
  columns: [column('READY'), column('UP-TO-DATE', 'integer'), column('AVAILABLE', 'integer')],
  cells: (spec, status) => [
    `${num(status.readyReplicas)}/${num(spec.replicas)}`,
    num(status.updatedReplicas),
    num(status.availableReplicas),
  ],
  selector: (spec) => selectorString(spec.selector),
});

export const statefulSetPrinter: Printer = {
  columns: [column('READY'), ageColumn, ...containersColumns],
  print(object) {
    const spec = obj(object.spec);
    return {
      cells: [
        `${num(obj(object.status).readyReplicas)}/${num(spec.replicas)}`,
        age(object),
        ...containerCells(obj(obj(spec.template).spec)),
      ],
    };
  },
};

export const daemonSetPrinter = templatedPrinter({
  columns: [
    ...replicaColumns,
    column('UP-TO-DATE', 'integer'),
    column('AVAILABLE', 'integer'),
    column('NODE SELECTOR'),
  ],
  cells: (spec, status) => [
    num(status.desiredNumberScheduled),
    num(status.currentNumberScheduled),
    num(status.numberReady),
    num(status.updatedNumberScheduled),
    num(status.numberAvailable),
    formatLabels(obj(obj(spec.template).spec).nodeSelector),
  ],
  selector: (spec) => formatLabelSelector(spec.selector),
});

const jobCondition = (conditions: Json[], type: string) =>
  conditions.find((condition) => condition.type === type)?.status === 'True';

/** The Job STATUS column, in the printer's order of precedence. */
export function jobStatus(job: KubeObject): string {
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

/** DURATION: from start to completion, or (a moment) since the start while the Job runs. */
function jobDuration(status: Json): TableCell {
  const start = str(status.startTime);
  if (start === '') return '';
  const end = str(status.completionTime);
  if (end === '') return since(start);
  return kubectlDuration(Date.parse(end) - Date.parse(start));
}

function completions(spec: Json, status: Json): string {
  const succeeded = num(status.succeeded);
  if (typeof spec.completions === 'number') return `${succeeded}/${spec.completions}`;
  const parallelism = num(spec.parallelism);
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

export const jobPrinter = templatedPrinter({
  columns: [column('STATUS'), column('COMPLETIONS'), column('DURATION', 'string', 0, 'time the job ran')],
  cells: (spec, status, object) => [jobStatus(object), completions(spec, status), jobDuration(status)],
  selector: (spec) => formatLabelSelector(spec.selector),
  status(object) {
    const text = jobStatus(object);
    return { text, tone: jobTones[text] ?? 'progress' };
  },
});

export const cronJobPrinter = templatedPrinter({
  columns: [
    column('SCHEDULE'),
    column('TIMEZONE'),
    column('SUSPEND'),
    column('ACTIVE', 'integer'),
    column('LAST SCHEDULE', 'date'),
  ],
  cells: (spec, status) => [
    str(spec.schedule),
    typeof spec.timeZone === 'string' ? spec.timeZone : null,
    typeof spec.suspend === 'boolean' ? (spec.suspend ? 'True' : 'False') : '<unset>',
    arr(status.active).length,
    status.lastScheduleTime === undefined ? null : since(status.lastScheduleTime),
  ],
  templateHolder: (spec) => obj(obj(spec.jobTemplate).spec),
  selector: (jobSpec) => formatLabelSelector(jobSpec.selector),
});

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
