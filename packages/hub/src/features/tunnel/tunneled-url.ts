import { badRequest, echo } from '@binnacle/common/server';

/** A URL under `/c/<cluster_id>`, as the tunnel reads it. */
export interface TunneledUrl {
  /** The cluster id, percent-decoded once. */
  clusterId: string;
  /** What the agent gets: the rest of the URL exactly as the client sent it (the agent decodes it, once). */
  agentPath: string;
}

const prefix = /^\/c\/([^/?#]*)/;

/** Whether a URL is one of a cluster's, `/c/<cluster_id>…` (before it is checked). */
export const isTunneled = (url: string) => prefix.test(url);

function decodeSegment(segment: string, url: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`the path ${echo(url)} has a malformed %-escape`);
  }
}

/**
 * Splits `/c/<cluster_id>/<rest>` (undefined for any other URL). The cluster id is decoded once here and
 * nowhere else; the rest is passed on untouched, so the agent sees the path the client wrote and decodes it
 * once itself. Encodings that read differently depending on who decodes them are refused with 400 rather
 * than guessed: an encoded `/` or `\` in any segment (it would split a segment at the agent, or not), and `.`
 * or `..` segments, written or encoded (a normalizing hop would climb out of the path the hub checked).
 */
export function tunneledUrl(url: string): TunneledUrl | undefined {
  const match = prefix.exec(url);
  if (!match) return undefined;
  const rest = url.slice(match[0].length);
  const agentPath = rest.startsWith('/') ? rest : `/${rest}`;
  const segments = (agentPath.split('?')[0] as string).split('/').slice(1);
  const decoded = [match[1] as string, ...segments].map((segment) => decodeSegment(segment, url));
  if (decoded.some((segment) => /[/\\]/.test(segment) || /^\.\.?$/.test(segment))) {
    throw badRequest(
      `the path ${echo(url)} is ambiguous: an encoded "/" or "\\", or a "." or ".." segment, is not forwarded to a cluster`,
    );
  }
  const clusterId = decoded[0] as string;
  if (!clusterId) throw badRequest('the path names no cluster: /c/<cluster_id>/…');
  return { clusterId, agentPath };
}
