import { type Client, type ClientReadableStream, credentials, type ServiceError } from '@grpc/grpc-js';
import { fromHubble } from './hubble-flow.ts';
import { type HubbleFlow, type HubbleServerStatus, observerService } from './hubble-proto.ts';
import type { FlowRecord } from './model.ts';

export const hubbleLimits = {
  /** ServerStatus must answer within this, or the address is taken for not a relay. */
  statusTimeoutMs: 3000,
  /** A window read (GetFlows without follow) ends by this deadline, with what it has. */
  readTimeoutMs: 10_000,
  /** Flows one window read takes at most. */
  maxFlows: 20_000,
};

type ObserverClient = Client & {
  ServerStatus(
    request: object,
    options: { deadline: number },
    callback: (error: ServiceError | null, status?: HubbleServerStatus) => void,
  ): void;
  GetFlows(request: object, options?: { deadline?: number }): ClientReadableStream<{ flow?: HubbleFlow }>;
};

const timestamp = (ms: number) => ({ seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1e6 });

/** A plain-text gRPC client of one Hubble relay (or a Hubble server), `host:port`. */
export class HubbleClient {
  readonly address: string;
  readonly #client: ObserverClient;

  constructor(address: string) {
    this.address = address;
    const Observer = observerService();
    this.#client = new Observer(address, credentials.createInsecure()) as unknown as ObserverClient;
  }

  status(timeoutMs = hubbleLimits.statusTimeoutMs): Promise<HubbleServerStatus> {
    return new Promise((resolve, reject) => {
      this.#client.ServerStatus({}, { deadline: Date.now() + timeoutMs }, (error, status) =>
        error ? reject(error) : resolve(status ?? {}),
      );
    });
  }

  /** The flows since `sinceMs` (at most `maxFlows`), read until the relay ends the answer or the deadline passes. */
  flows(sinceMs: number, maxFlows = hubbleLimits.maxFlows): Promise<FlowRecord[]> {
    const call = this.#client.GetFlows(
      // `number` and `since` exclude each other in observer.proto: the cap is kept here instead.
      { since: timestamp(sinceMs) },
      { deadline: Date.now() + hubbleLimits.readTimeoutMs },
    );
    const records: FlowRecord[] = [];
    return new Promise((resolve, reject) => {
      call.on('data', (response: { flow?: HubbleFlow }) => {
        if (response.flow) records.push(fromHubble(response.flow));
        if (records.length >= maxFlows) call.cancel();
      });
      call.on('error', (error: ServiceError) =>
        // A cancel of ours, or the deadline: what came so far is the answer.
        records.length > 0 && (error.code === 1 || error.code === 4) ? resolve(records) : reject(error),
      );
      call.on('end', () => resolve(records));
    });
  }

  /** Follows the flows from `sinceMs` on; returns a function that ends the call. */
  follow(sinceMs: number, onFlow: (flow: FlowRecord) => void, onEnd: (error?: Error) => void): () => void {
    const call = this.#client.GetFlows({ since: timestamp(sinceMs), follow: true });
    let cancelled = false;
    call.on('data', (response: { flow?: HubbleFlow }) => {
      if (response.flow) onFlow(fromHubble(response.flow));
    });
    call.on('error', (error: Error) => {
      if (!cancelled) onEnd(error);
    });
    call.on('end', () => {
      if (!cancelled) onEnd();
    });
    return () => {
      cancelled = true;
      call.cancel();
    };
  }

  close(): void {
    this.#client.close();
  }
}
