import type { StatusTone } from '@binnacle/common';
import { age, ageColumn, arr, column, type Json, num, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** Printers of the API server's own kinds: API priority and fairness, aggregated APIs (ADR 0053). */

export const flowSchemaPrinter: Printer = {
  columns: [
    column('PRIORITYLEVEL'),
    column('MATCHINGPRECEDENCE', 'integer'),
    column('DISTINGUISHERMETHOD'),
    ageColumn,
    column('MISSINGPL'),
  ],
  print(object) {
    const spec = obj(object.spec);
    const dangling = arr(obj(object.status).conditions).find((condition) => condition.type === 'Dangling');
    return {
      cells: [
        str(obj(spec.priorityLevelConfiguration).name),
        num(spec.matchingPrecedence),
        spec.distinguisherMethod === undefined ? null : str(obj(spec.distinguisherMethod).type),
        age(object),
        dangling ? str(dangling.status) : '?',
      ],
    };
  },
};

const orNone = (value: unknown) => (typeof value === 'number' ? value : null);

export const priorityLevelPrinter: Printer = {
  columns: [
    column('TYPE'),
    column('NOMINALCONCURRENCYSHARES'),
    column('QUEUES'),
    column('HANDSIZE'),
    column('QUEUELENGTHLIMIT'),
    ageColumn,
  ],
  print(object) {
    const spec = obj(object.spec);
    const limited: Json | undefined = spec.limited === undefined ? undefined : obj(spec.limited);
    const queuing: Json | undefined =
      limited && obj(limited.limitResponse).queuing !== undefined
        ? obj(obj(limited.limitResponse).queuing)
        : undefined;
    return {
      cells: [
        str(spec.type),
        limited ? num(limited.nominalConcurrencyShares) : null,
        orNone(queuing ? num(queuing.queues) : undefined),
        orNone(queuing ? num(queuing.handSize) : undefined),
        orNone(queuing ? num(queuing.queueLengthLimit) : undefined),
        age(object),
      ],
    };
  },
};

/** AVAILABLE: `True`, else the condition's status with its reason, `Unknown` without one. */
function availability(status: unknown): string {
  const condition = arr(obj(status).conditions).find((entry) => entry.type === 'Available');
  if (!condition) return 'Unknown';
  if (condition.status === 'True' || !str(condition.reason)) return str(condition.status);
  return `${str(condition.status)} (${str(condition.reason)})`;
}

export const apiServicePrinter: Printer = {
  columns: [column('SERVICE'), column('AVAILABLE'), ageColumn],
  print(object) {
    const service = obj(object.spec).service;
    const text = availability(object.status);
    const tone: StatusTone = text === 'True' ? 'ok' : 'error';
    return {
      cells: [
        service ? `${str(obj(service).namespace)}/${str(obj(service).name)}` : 'Local',
        text,
        age(object),
      ],
      status: { text, tone },
    };
  },
};
