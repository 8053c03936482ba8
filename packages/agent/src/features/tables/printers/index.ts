import type { StatusTone, TableCell, TableColumn } from '@binnacle/common';
import type { ApiResource } from '../../../kube/discovery.ts';
import type { KubeObject } from '../../../kube/objects.ts';

/** One object as a table row: its cells in column order, and the status the UI colours and filters by. */
export interface PrintedRow {
  cells: TableCell[];
  status?: { text: string; tone: StatusTone };
}

/** A kind's columns as `kubectl get -o wide` prints them, and how one object fills them (ADR 0053). */
export interface Printer {
  columns: readonly TableColumn[];
  print(object: KubeObject): PrintedRow;
}

const ageColumn: TableColumn = {
  name: 'AGE',
  type: 'date',
  priority: 0,
  description: 'time since the object was created',
};

/** kubectl's columns for a kind the server prints no others for: the name (a separate column) and the age. */
const nameAndAge: Printer = {
  columns: [ageColumn],
  print: (object) => ({
    cells: [object.metadata?.creationTimestamp ? { at: object.metadata.creationTimestamp } : null],
  }),
};

/**
 * The printer for a kind. `crd` is the kind's CustomResourceDefinition when it is a custom resource (its
 * `additionalPrinterColumns` are its columns). NAME and NAMESPACE are not columns here: every row carries them.
 */
export function printerFor(_resource: ApiResource, _crd: KubeObject | undefined): Printer {
  return nameAndAge;
}
