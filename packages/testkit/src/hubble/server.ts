import { join } from 'node:path';
import {
  type GrpcObject,
  status as grpcStatus,
  loadPackageDefinition,
  Server,
  ServerCredentials,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceClientConstructor,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { repoRoot } from '../cluster/paths.ts';
import type { HubbleFlowMessage } from './flows.ts';

/** The same vendored protos the agent speaks (Cilium v1.20.2, see their README). */
const protoDir = join(repoRoot, 'packages/agent/src/features/traffic/proto');

export interface HubbleServerOptions {
  /** Flows already in the ring buffer when the server starts. */
  flows?: HubbleFlowMessage[];
  /** Ring buffer size (Hubble's default is 4095). */
  maxFlows?: number;
  version?: string;
}

export interface HubbleServer {
  /** `127.0.0.1:<port>`. */
  address: string;
  /** Adds flows to the ring buffer and sends them to every follow stream at once. */
  inject(...flows: HubbleFlowMessage[]): void;
  /** GetFlows calls served so far (follow or not). */
  readonly calls: number;
  /** Follow streams open now. */
  readonly followers: number;
  close(): Promise<void>;
}

interface GetFlowsRequest {
  number?: number;
  first?: boolean;
  follow?: boolean;
  since?: { seconds?: number; nanos?: number };
  until?: { seconds?: number; nanos?: number };
}

const ms = (t: { seconds?: number; nanos?: number } | undefined) =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : undefined;

function observerService() {
  const definition = loadSync('observer/observer.proto', {
    includeDirs: [protoDir],
    longs: Number,
    enums: String,
    defaults: false,
    oneofs: true,
  });
  const root = loadPackageDefinition(definition);
  return ((root.observer as GrpcObject).Observer as ServiceClientConstructor).service;
}

/**
 * A Hubble relay stand-in on loopback: a real gRPC server of Cilium's `observer.Observer` (GetFlows with
 * number/first/since/until/follow, ServerStatus) over a ring buffer of flows the test gives it. Flow filters
 * (whitelist/blacklist) are not applied. The Cilium datapath itself cannot run here (it needs eBPF in a real
 * kernel per node), so the flows are built from the local control plane's pods (see `hubbleFlow`).
 */
export async function startHubbleServer(options: HubbleServerOptions = {}): Promise<HubbleServer> {
  const maxFlows = options.maxFlows ?? 4095;
  const ring: HubbleFlowMessage[] = [];
  const followers = new Set<(flow: HubbleFlowMessage) => void>();
  const startedAt = Date.now();
  let seen = 0;
  let calls = 0;
  const add = (flow: HubbleFlowMessage) => {
    ring.push(flow);
    if (ring.length > maxFlows) ring.shift();
    seen += 1;
    for (const follower of followers) follower(flow);
  };
  for (const flow of options.flows ?? []) add(flow);

  const server = new Server();
  server.addService(observerService(), {
    GetFlows(call: ServerWritableStream<GetFlowsRequest, unknown>) {
      calls += 1;
      const request = call.request;
      if (request.first && request.follow) {
        call.destroy(
          Object.assign(new Error('first cannot be combined with follow'), {
            code: grpcStatus.INVALID_ARGUMENT,
          }),
        );
        return;
      }
      const since = ms(request.since);
      const until = ms(request.until);
      const inTime = (flow: HubbleFlowMessage) => {
        const time = ms(flow.time as { seconds?: number; nanos?: number });
        return (since === undefined || (time ?? 0) >= since) && (until === undefined || (time ?? 0) <= until);
      };
      let past = ring.filter(inTime);
      const number = Number(request.number ?? 0);
      if (number > 0) past = request.first ? past.slice(0, number) : past.slice(-number);
      const send = (flow: HubbleFlowMessage) => call.write({ flow, nodeName: 'kwok-node', time: flow.time });
      for (const flow of past) send(flow);
      if (!request.follow) {
        call.end();
        return;
      }
      followers.add(send);
      const stop = () => followers.delete(send);
      call.on('cancelled', stop);
      call.on('close', stop);
      call.on('error', stop);
    },
    ServerStatus(_call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) {
      callback(null, {
        numFlows: ring.length,
        maxFlows,
        seenFlows: seen,
        uptimeNs: (Date.now() - startedAt) * 1e6,
        numConnectedNodes: { value: 1 },
        numUnavailableNodes: { value: 0 },
        version: options.version ?? 'v1.20.2',
        flowsRate: 0,
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    address: `127.0.0.1:${port}`,
    inject: (...flows) => {
      for (const flow of flows) add(flow);
    },
    get calls() {
      return calls;
    },
    get followers() {
      return followers.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        followers.clear();
        server.forceShutdown();
        resolve();
      }),
  };
}
