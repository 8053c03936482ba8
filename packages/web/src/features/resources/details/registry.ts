import type { KubeObject } from '@binnacle/common';
import type { ComponentType } from 'react';
import { ConfigMapDetails, NamespaceDetails, NetworkPolicyDetails, SecretDetails } from './config.tsx';
import { AutoscalerDetails } from './hpa.tsx';
import { IngressDetails } from './ingress.tsx';
import { CronJobDetails, JobDetails } from './jobs.tsx';
import { NodeDetails } from './NodeDetails.tsx';
import { PodDetails } from './PodDetails.tsx';
import { BindingDetails, RoleDetails } from './rbac.tsx';
import { ServiceDetails } from './service.tsx';
import { ClaimDetails, StorageClassDetails, VolumeDetails } from './storage.tsx';
import { WorkloadDetails } from './workloads.tsx';

export interface KindDetailsProps {
  resource: KubeObject;
  /** Undefined for a cluster-scoped object. */
  namespace: string | undefined;
  name: string;
}

/**
 * What an object page shows for its kind between the summary and the events (a pod's containers and why it
 * fails, a node's capacity and pods…): one component per Kind, each in its own file beside this one.
 */
export const kindDetails: Partial<Record<string, ComponentType<KindDetailsProps>>> = {
  Node: NodeDetails,
  Pod: PodDetails,
  Deployment: WorkloadDetails,
  StatefulSet: WorkloadDetails,
  DaemonSet: WorkloadDetails,
  ReplicaSet: WorkloadDetails,
  Service: ServiceDetails,
  Ingress: IngressDetails,
  PersistentVolumeClaim: ClaimDetails,
  PersistentVolume: VolumeDetails,
  StorageClass: StorageClassDetails,
  Job: JobDetails,
  CronJob: CronJobDetails,
  HorizontalPodAutoscaler: AutoscalerDetails,
  Role: RoleDetails,
  ClusterRole: RoleDetails,
  RoleBinding: BindingDetails,
  ClusterRoleBinding: BindingDetails,
  ConfigMap: ConfigMapDetails,
  Secret: SecretDetails,
  Namespace: NamespaceDetails,
  NetworkPolicy: NetworkPolicyDetails,
};

/**
 * Kinds whose details read nothing but the object: an object page as of a past moment (time travel) shows them for
 * that state; the others ask the agent for live objects (pods, revisions, bindings) and are left out then.
 */
export const detailsOfTheObjectAlone = new Set(['Pod', 'HorizontalPodAutoscaler']);
