import { join } from 'node:path';
import { type GrpcObject, loadPackageDefinition, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

/**
 * The vendored Hubble protos (./proto, see its README). Resolved beside this module: in the release bundle
 * `build:cli` copies them next to the bundle under the same name.
 */
export const hubbleProtoDir = join(import.meta.dirname, 'proto');

let observer: ServiceClientConstructor | undefined;

/** Cilium's `observer.Observer` service, loaded once; decoded messages use camelCase fields and enum names. */
export function observerService(): ServiceClientConstructor {
  if (!observer) {
    const definition = loadSync('observer/observer.proto', {
      includeDirs: [hubbleProtoDir],
      longs: Number,
      enums: String,
      defaults: false,
      oneofs: true,
    });
    const root = loadPackageDefinition(definition);
    observer = (root.observer as GrpcObject).Observer as ServiceClientConstructor;
  }
  return observer;
}

/** The parts of a decoded `flow.Endpoint` the agent reads. */
export interface HubbleEndpoint {
  namespace?: string;
  podName?: string;
  labels?: string[];
  workloads?: { name?: string; kind?: string }[];
}

/** The parts of a decoded `flow.Flow` the agent reads. */
export interface HubbleFlow {
  time?: { seconds?: number; nanos?: number };
  uuid?: string;
  verdict?: string;
  IP?: { source?: string; destination?: string };
  l4?: {
    TCP?: { sourcePort?: number; destinationPort?: number; flags?: { SYN?: boolean; ACK?: boolean } };
    UDP?: { sourcePort?: number; destinationPort?: number };
    SCTP?: { sourcePort?: number; destinationPort?: number };
    ICMPv4?: unknown;
    ICMPv6?: unknown;
  };
  source?: HubbleEndpoint;
  destination?: HubbleEndpoint;
  sourceNames?: string[];
  destinationNames?: string[];
  l7?: {
    type?: string;
    latencyNs?: number;
    http?: { code?: number; method?: string; url?: string };
    dns?: { query?: string; rcode?: number };
  };
  isReply?: { value?: boolean };
  dropReasonDesc?: string;
}

export interface HubbleServerStatus {
  numFlows?: number;
  maxFlows?: number;
  seenFlows?: number;
  uptimeNs?: number;
  version?: string;
  numConnectedNodes?: { value?: number };
  numUnavailableNodes?: { value?: number };
  flowsRate?: number;
}
