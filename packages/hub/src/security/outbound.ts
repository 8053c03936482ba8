import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, buildConnector, request } from 'undici';
import { bareAddress, listed, type Network, networkList, specialPurpose } from './addresses.ts';

/**
 * Why a guarded fetch did not return a document. For the hub's log only: a caller is told one generic
 * sentence, never the upstream status or network error (they would turn the hub into a port scanner).
 */
export class OutboundFailure extends Error {}

export interface OutboundLimits {
  /** For the whole exchange, connection to last byte. */
  timeoutMs: number;
  maxBytes: number;
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The one way the hub fetches a URL a caller chose (ADR 0049): http(s) only; every address the host name
 * resolves to, or the address the URL names, is checked when the connection is made — so a name that resolves
 * to a public address when a caller submits it and to an internal one a moment later (DNS rebinding) is still
 * refused — against the special-purpose networks (loopback, private, link-local, unique-local, CGNAT,
 * multicast, unspecified, and their IPv4-mapped, NAT64 and 6to4 forms), unless the operator allowed the
 * address (`outboundAllowedNetworks`); no redirect is followed; time and size are bounded.
 */
export class GuardedFetcher {
  readonly #allowed;
  readonly #agent: Agent;

  constructor(allowedNetworks: readonly Network[]) {
    this.#allowed = networkList(allowedNetworks);
    const connect = buildConnector({ lookup: this.#lookup });
    this.#agent = new Agent({
      connections: 16,
      connect: (options, callback) => {
        // A URL that names an address is connected to without a lookup: checked here instead.
        const host = bareAddress(options.hostname);
        if (isIP(host) !== 0 && !this.permits(host)) {
          callback(new OutboundFailure(`${host} is not an allowed destination`), null);
          return;
        }
        connect(options, callback);
      },
    });
  }

  /** Whether the hub may connect to this address for a caller. */
  permits(address: string): boolean {
    return listed(this.#allowed, address) || !listed(specialPurpose, address);
  }

  readonly #lookup = (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((candidate) => !this.permits(candidate.address));
      if (refused) return callback(new OutboundFailure(`${hostname} resolves to ${refused.address}`), []);
      const [first] = addresses;
      if (options.all || !first) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };

  /** A JSON document by GET; OutboundFailure (with the reason, for the log) for anything else. */
  async getJson(url: URL, limits: OutboundLimits): Promise<unknown> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundFailure(`${url.protocol} is not http or https`);
    const signal = AbortSignal.timeout(limits.timeoutMs);
    const chunks: Buffer[] = [];
    try {
      const answer = await request(url, {
        dispatcher: this.#agent,
        signal,
        headers: { accept: 'application/json' },
      });
      if (answer.statusCode !== 200) {
        await answer.body.dump({ limit: limits.maxBytes });
        throw new OutboundFailure(`answered ${answer.statusCode}`);
      }
      let bytes = 0;
      // Leaving the loop early (too large) destroys the body and so the connection's stream.
      for await (const chunk of answer.body) {
        bytes += (chunk as Buffer).length;
        if (bytes > limits.maxBytes) throw new OutboundFailure(`answered more than ${limits.maxBytes} bytes`);
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      if (error instanceof OutboundFailure) throw error;
      throw new OutboundFailure((error as Error).message, { cause: error });
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    } catch {
      throw new OutboundFailure('answered something that is not JSON');
    }
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}
