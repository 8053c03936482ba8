import type { KubeObject, StatusTone } from '@binnacle/common';
import { age, ageColumn, arr, column, goBool, obj, str, strings } from './format.ts';
import type { Printer } from './index.ts';

/** Printers of volumes, claims and the storage group (ADR 0053). */

const accessModeNames: [string, string][] = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];

function accessModes(modes: unknown): string {
  const present = new Set(strings(modes));
  return accessModeNames
    .filter(([mode]) => present.has(mode))
    .map(([, short]) => short)
    .join(',');
}

const betaClassAnnotation = 'volume.beta.kubernetes.io/storage-class';

/** The storage class a volume or claim names: the beta annotation wins over `spec.storageClassName`. */
const storageClass = (object: KubeObject) =>
  object.metadata?.annotations?.[betaClassAnnotation] ?? str(obj(object.spec).storageClassName);

const unset = (value: unknown) => (typeof value === 'string' ? value : '<unset>');

const phaseTones: Record<string, StatusTone> = {
  Bound: 'ok',
  Available: 'ok',
  Pending: 'progress',
  Terminating: 'progress',
  Released: 'warning',
  Lost: 'error',
  Failed: 'error',
};

const phaseOf = (object: KubeObject) =>
  object.metadata?.deletionTimestamp ? 'Terminating' : str(obj(object.status).phase);

const phaseStatus = (text: string) => ({ text, tone: phaseTones[text] ?? 'warning' });

export const persistentVolumePrinter: Printer = {
  columns: [
    column('CAPACITY', 'quantity'),
    column('ACCESS MODES'),
    column('RECLAIM POLICY'),
    column('STATUS'),
    column('CLAIM'),
    column('STORAGECLASS'),
    column('VOLUMEATTRIBUTESCLASS'),
    column('REASON'),
    ageColumn,
    column('VOLUMEMODE', 'string', 1),
  ],
  print(object) {
    const spec = obj(object.spec);
    const claim = spec.claimRef === undefined ? undefined : obj(spec.claimRef);
    const phase = phaseOf(object);
    return {
      cells: [
        str(obj(spec.capacity).storage) || '0',
        accessModes(spec.accessModes),
        str(spec.persistentVolumeReclaimPolicy),
        phase,
        claim ? `${str(claim.namespace)}/${str(claim.name)}` : '',
        storageClass(object),
        unset(spec.volumeAttributesClassName),
        str(obj(object.status).reason),
        age(object),
        unset(spec.volumeMode),
      ],
      status: phaseStatus(phase),
    };
  },
};

export const persistentVolumeClaimPrinter: Printer = {
  columns: [
    column('STATUS'),
    column('VOLUME'),
    column('CAPACITY', 'quantity'),
    column('ACCESS MODES'),
    column('STORAGECLASS'),
    column('VOLUMEATTRIBUTESCLASS'),
    ageColumn,
    column('VOLUMEMODE', 'string', 1),
  ],
  print(object) {
    const spec = obj(object.spec);
    const status = obj(object.status);
    const bound = str(spec.volumeName) !== '';
    const phase = phaseOf(object);
    return {
      cells: [
        phase,
        str(spec.volumeName),
        bound ? str(obj(status.capacity).storage) || '0' : '',
        bound ? accessModes(status.accessModes) : '',
        storageClass(object),
        unset(spec.volumeAttributesClassName),
        age(object),
        unset(spec.volumeMode),
      ],
      status: phaseStatus(phase),
    };
  },
};

export const storageClassPrinter: Printer = {
  columns: [
    column('PROVISIONER'),
    column('RECLAIMPOLICY'),
    column('VOLUMEBINDINGMODE'),
    column('ALLOWVOLUMEEXPANSION'),
    ageColumn,
  ],
  print: (object) => ({
    cells: [
      str(object.provisioner),
      typeof object.reclaimPolicy === 'string' ? object.reclaimPolicy : 'Delete',
      typeof object.volumeBindingMode === 'string' ? object.volumeBindingMode : 'Immediate',
      goBool(object.allowVolumeExpansion),
      age(object),
    ],
  }),
};

export const csiDriverPrinter: Printer = {
  columns: [
    column('ATTACHREQUIRED'),
    column('PODINFOONMOUNT'),
    column('STORAGECAPACITY'),
    column('TOKENREQUESTS'),
    column('REQUIRESREPUBLISH'),
    column('MODES'),
    ageColumn,
  ],
  print(object) {
    const spec = obj(object.spec);
    const modes = strings(spec.volumeLifecycleModes);
    return {
      cells: [
        goBool(spec.attachRequired ?? true),
        goBool(spec.podInfoOnMount),
        goBool(spec.storageCapacity),
        Array.isArray(spec.tokenRequests)
          ? arr(spec.tokenRequests)
              .map((request) => str(request.audience))
              .join(',')
          : '<unset>',
        goBool(spec.requiresRepublish),
        modes.length > 0 ? modes.join(',') : null,
        age(object),
      ],
    };
  },
};

export const csiNodePrinter: Printer = {
  columns: [column('DRIVERS', 'integer'), ageColumn],
  print: (object) => ({ cells: [arr(obj(object.spec).drivers).length, age(object)] }),
};

export const volumeAttachmentPrinter: Printer = {
  columns: [column('ATTACHER'), column('PV'), column('NODE'), column('ATTACHED'), ageColumn],
  print(object) {
    const spec = obj(object.spec);
    return {
      cells: [
        str(spec.attacher),
        str(obj(spec.source).persistentVolumeName),
        str(spec.nodeName),
        goBool(obj(object.status).attached),
        age(object),
      ],
    };
  },
};

export const volumeAttributesClassPrinter: Printer = {
  columns: [column('DRIVERNAME'), ageColumn],
  print: (object) => ({ cells: [str(object.driverName), age(object)] }),
};
