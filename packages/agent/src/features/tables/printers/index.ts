import type { KubeObject, StatusTone, TableCell, TableColumn } from '@binnacle/common';
import type { ApiResource } from '../../../kube/discovery.ts';
import {
  admissionPolicyBindingPrinter,
  certificateSigningRequestPrinter,
  mutatingAdmissionPolicyPrinter,
  validatingAdmissionPolicyPrinter,
  webhookConfigurationPrinter,
} from './admission.ts';
import { apiServicePrinter, flowSchemaPrinter, priorityLevelPrinter } from './apiserver.ts';
import { horizontalPodAutoscalerPrinter } from './autoscaling.ts';
import { leasePrinter, nodePrinter, priorityClassPrinter, runtimeClassPrinter } from './cluster.ts';
import {
  ageOnlyPrinter,
  configMapPrinter,
  createdAtPrinter,
  eventPrinter,
  eventsApiEventPrinter,
  namespacePrinter,
  resourceQuotaPrinter,
  secretPrinter,
} from './core.ts';
import { crdPrinter } from './crd.ts';
import { resourceClaimPrinter, resourceSlicePrinter } from './dra.ts';
import {
  endpointSlicePrinter,
  endpointsPrinter,
  ingressClassPrinter,
  ingressPrinter,
  ipAddressPrinter,
  networkPolicyPrinter,
  serviceCidrPrinter,
  servicePrinter,
} from './networking.ts';
import { podPrinter } from './pods.ts';
import { bindingPrinter } from './rbac.ts';
import {
  csiDriverPrinter,
  csiNodePrinter,
  persistentVolumeClaimPrinter,
  persistentVolumePrinter,
  storageClassPrinter,
  volumeAttachmentPrinter,
  volumeAttributesClassPrinter,
} from './storage.ts';
import {
  controllerRevisionPrinter,
  cronJobPrinter,
  daemonSetPrinter,
  deploymentPrinter,
  jobPrinter,
  podDisruptionBudgetPrinter,
  podTemplatePrinter,
  replicaSetPrinter,
  replicationControllerPrinter,
  statefulSetPrinter,
} from './workloads.ts';

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

/** The API server's printers by `group/Kind` (the core group is empty: `/Pod`). */
const builtIn: ReadonlyMap<string, Printer> = new Map([
  ['/Pod', podPrinter],
  ['/PodTemplate', podTemplatePrinter],
  ['/ReplicationController', replicationControllerPrinter],
  ['/Service', servicePrinter],
  ['/Endpoints', endpointsPrinter],
  ['/Node', nodePrinter],
  ['/Event', eventPrinter],
  ['/Namespace', namespacePrinter],
  ['/Secret', secretPrinter],
  ['/ConfigMap', configMapPrinter],
  ['/ServiceAccount', ageOnlyPrinter],
  ['/PersistentVolume', persistentVolumePrinter],
  ['/PersistentVolumeClaim', persistentVolumeClaimPrinter],
  ['/ResourceQuota', resourceQuotaPrinter],
  ['apps/ReplicaSet', replicaSetPrinter],
  ['apps/Deployment', deploymentPrinter],
  ['apps/StatefulSet', statefulSetPrinter],
  ['apps/DaemonSet', daemonSetPrinter],
  ['apps/ControllerRevision', controllerRevisionPrinter],
  ['batch/Job', jobPrinter],
  ['batch/CronJob', cronJobPrinter],
  ['autoscaling/HorizontalPodAutoscaler', horizontalPodAutoscalerPrinter],
  ['policy/PodDisruptionBudget', podDisruptionBudgetPrinter],
  ['networking.k8s.io/Ingress', ingressPrinter],
  ['networking.k8s.io/IngressClass', ingressClassPrinter],
  ['networking.k8s.io/NetworkPolicy', networkPolicyPrinter],
  ['discovery.k8s.io/EndpointSlice', endpointSlicePrinter],
  ['events.k8s.io/Event', eventsApiEventPrinter],
  ['rbac.authorization.k8s.io/RoleBinding', bindingPrinter],
  ['rbac.authorization.k8s.io/ClusterRoleBinding', bindingPrinter],
  ['storage.k8s.io/StorageClass', storageClassPrinter],
  ['storage.k8s.io/CSIDriver', csiDriverPrinter],
  ['storage.k8s.io/CSINode', csiNodePrinter],
  ['storage.k8s.io/VolumeAttachment', volumeAttachmentPrinter],
  ['scheduling.k8s.io/PriorityClass', priorityClassPrinter],
  ['node.k8s.io/RuntimeClass', runtimeClassPrinter],
  ['coordination.k8s.io/Lease', leasePrinter],
  ['admissionregistration.k8s.io/MutatingWebhookConfiguration', webhookConfigurationPrinter],
  ['admissionregistration.k8s.io/ValidatingWebhookConfiguration', webhookConfigurationPrinter],
  ['certificates.k8s.io/CertificateSigningRequest', certificateSigningRequestPrinter],
  ['admissionregistration.k8s.io/ValidatingAdmissionPolicy', validatingAdmissionPolicyPrinter],
  ['admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding', admissionPolicyBindingPrinter],
  ['admissionregistration.k8s.io/MutatingAdmissionPolicy', mutatingAdmissionPolicyPrinter],
  ['admissionregistration.k8s.io/MutatingAdmissionPolicyBinding', admissionPolicyBindingPrinter],
  ['flowcontrol.apiserver.k8s.io/FlowSchema', flowSchemaPrinter],
  ['flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration', priorityLevelPrinter],
  ['apiregistration.k8s.io/APIService', apiServicePrinter],
  ['networking.k8s.io/ServiceCIDR', serviceCidrPrinter],
  ['networking.k8s.io/IPAddress', ipAddressPrinter],
  ['storage.k8s.io/VolumeAttributesClass', volumeAttributesClassPrinter],
  ['resource.k8s.io/DeviceClass', ageOnlyPrinter],
  ['resource.k8s.io/ResourceClaim', resourceClaimPrinter],
  ['resource.k8s.io/ResourceClaimTemplate', ageOnlyPrinter],
  ['resource.k8s.io/ResourceSlice', resourceSlicePrinter],
]);

const crdPrinters = new WeakMap<KubeObject, Map<string, Printer>>();

/**
 * The printer for a kind. `crd` is the kind's CustomResourceDefinition when it is a custom resource (its
 * `additionalPrinterColumns` are its columns). NAME and NAMESPACE are not columns here: every row carries them.
 * A kind with neither a printer nor a CRD (Role, LimitRange, CSIStorageCapacity, CustomResourceDefinition…) gets
 * the API server's default table: CREATED AT.
 */
export function printerFor(resource: ApiResource, crd: KubeObject | undefined): Printer {
  const known = builtIn.get(`${resource.group}/${resource.kind}`);
  if (known) return known;
  if (!crd) return createdAtPrinter;
  // Compiled once per CRD object: the cache replaces the object when the CRD changes, which compiles it anew.
  let versions = crdPrinters.get(crd);
  if (!versions) {
    versions = new Map();
    crdPrinters.set(crd, versions);
  }
  let printer = versions.get(resource.version);
  if (!printer) {
    printer = crdPrinter(crd, resource.version);
    versions.set(resource.version, printer);
  }
  return printer;
}
