import type { KubeObject, StatusTone } from '@binnacle/common';
import { age, ageColumn, column, type Json, num, obj, since, str } from './format.ts';
import type { Printer } from './index.ts';

/** Printers of the core group's configuration, namespaces, quotas and events (ADR 0053). */

export const configMapPrinter: Printer = {
  columns: [column('DATA', 'integer'), ageColumn],
  print: (object) => ({
    cells: [Object.keys(obj(object.data)).length + Object.keys(obj(object.binaryData)).length, age(object)],
  }),
};

export const secretPrinter: Printer = {
  columns: [column('TYPE'), column('DATA', 'integer'), ageColumn],
  print: (object) => ({
    cells: [str(object.type), Object.keys(obj(object.data)).length, age(object)],
  }),
};

export const ageOnlyPrinter: Printer = {
  columns: [ageColumn],
  print: (object) => ({ cells: [age(object)] }),
};

const namespaceTones: Record<string, StatusTone> = { Active: 'ok', Terminating: 'progress' };

export const namespacePrinter: Printer = {
  columns: [column('STATUS'), ageColumn],
  print(object) {
    const phase = str(obj(object.status).phase);
    return {
      cells: [phase, age(object)],
      status: { text: phase, tone: namespaceTones[phase] ?? 'warning' },
    };
  },
};

/**
 * REQUEST and LIMIT: `resource: used/hard` for every hard limit, sorted by name; `limits.*` go to LIMIT.
 * Quantities are printed as the API server serialized them (its canonical form).
 */
export const resourceQuotaPrinter: Printer = {
  columns: [column('REQUEST'), column('LIMIT'), ageColumn],
  print(object) {
    const status = obj(object.status);
    const hard = obj(status.hard);
    const used = obj(status.used);
    const requests: string[] = [];
    const limits: string[] = [];
    for (const name of Object.keys(hard).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
      const entry = `${name}: ${str(used[name]) || '0'}/${str(hard[name]) || '0'}`;
      const pieces = name.split('.');
      (pieces.length > 1 && pieces[0] === 'limits' ? limits : requests).push(entry);
    }
    return { cells: [requests.join(', '), limits.join(', '), age(object)] };
  },
};

/** A core/v1 Event or an events.k8s.io/v1 Event in the fields the printer reads (the server converts both). */
interface EventFields {
  firstTimestamp: string;
  lastTimestamp: string;
  eventTime: string;
  series?: Json;
  count: number;
  regarding: Json;
  component: string;
  host: string;
  message: string;
}

function eventFields(event: KubeObject, modern: boolean): EventFields {
  const source = obj(modern ? event.deprecatedSource : event.source);
  const fields: EventFields = {
    firstTimestamp: str(modern ? event.deprecatedFirstTimestamp : event.firstTimestamp),
    lastTimestamp: str(modern ? event.deprecatedLastTimestamp : event.lastTimestamp),
    eventTime: str(event.eventTime),
    count: num(modern ? event.deprecatedCount : event.count),
    regarding: obj(modern ? event.regarding : event.involvedObject),
    component: str(source.component) || str(event.reportingController ?? event.reportingComponent),
    host: str(source.host) || str(event.reportingInstance),
    message: str(modern ? event.note : event.message),
  };
  if (event.series !== undefined && event.series !== null) fields.series = obj(event.series);
  return fields;
}

/**
 * Events of the core group or, `modern`, of events.k8s.io (whose fields the server converts to the core
 * ones before printing). kubectl's last, wide-only NAME column is the row's name here, as for every kind.
 */
const eventPrinterOf = (modern: boolean): Printer => ({
  columns: [
    column('LAST SEEN', 'date'),
    column('TYPE'),
    column('REASON'),
    column('OBJECT'),
    column('SUBOBJECT', 'string', 1),
    column('SOURCE', 'string', 1),
    column('MESSAGE'),
    column('FIRST SEEN', 'date', 1),
    column('COUNT', 'integer', 1),
  ],
  print(object) {
    const event = eventFields(object, modern);
    const first = since(event.firstTimestamp || event.eventTime);
    let last = event.lastTimestamp ? since(event.lastTimestamp) : first;
    let count = event.count;
    if (event.series) {
      last = since(event.series.lastObservedTime);
      count = num(event.series.count);
    } else if (count === 0) count = 1;
    const kind = str(event.regarding.kind).toLowerCase();
    const name = str(event.regarding.name);
    return {
      cells: [
        last,
        str(object.type),
        str(object.reason),
        name ? `${kind}/${name}` : kind,
        str(event.regarding.fieldPath),
        event.host ? `${event.component}, ${event.host}` : event.component,
        event.message.trim(),
        first,
        count,
      ],
    };
  },
});

export const eventPrinter = eventPrinterOf(false);
export const eventsApiEventPrinter = eventPrinterOf(true);

/** kubectl's two columns for a kind the API server has no printer for (Role, LimitRange, CRDs…). */
export const createdAtPrinter: Printer = {
  columns: [column('CREATED AT', 'string', 0, 'when the object was created (RFC 3339, UTC)')],
  print: (object) => ({ cells: [str(object.metadata?.creationTimestamp)] }),
};
