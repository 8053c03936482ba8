import type { Protocol } from './types.ts';

/** The tester's URL: the question (as the agent's query names it) or the namespace whose matrix is shown. */
export interface NetpolSearch {
  source?: string;
  sourceNamespace?: string;
  sourceLabels?: string;
  destination?: string;
  /** A number when it is one; any other text stays text, for the agent to refuse with a 400. */
  port?: number | string;
  protocol?: Protocol;
  matrix?: string;
}

export type SourceMode = 'pod' | 'labels' | 'ip';
export type DestinationMode = 'pod' | 'service' | 'ip';

/** One end of the connection as the form holds it, whichever way it is named. */
export interface EndpointDraft<M extends string> {
  mode: M;
  namespace: string;
  name: string;
  labels: string;
  ip: string;
}

/** What the form holds while someone fills it in. */
export interface Draft {
  source: EndpointDraft<SourceMode>;
  destination: EndpointDraft<DestinationMode>;
  port: string;
  protocol: Protocol;
}

/** `pod/demo-shop/web-0` → its kind, namespace and name; `ip/10.0.0.7` → kind ip and the address as name. */
export function parseEndpoint(text?: string): { kind: string; namespace: string; name: string } | undefined {
  if (!text) return undefined;
  const [kind = '', ...rest] = text.split('/');
  if (kind === 'ip') return { kind, namespace: '', name: rest.join('/') };
  return { kind, namespace: rest[0] ?? '', name: rest.slice(1).join('/') };
}

/** The form as the URL describes it; an empty question starts in the namespace in view. */
export function draftOf(search: NetpolSearch, namespace = ''): Draft {
  const source = parseEndpoint(search.source);
  const destination = parseEndpoint(search.destination);
  const named = (end?: { kind: string; namespace: string; name: string }) =>
    end && end.kind !== 'ip' ? { namespace: end.namespace, name: end.name } : { namespace, name: '' };
  return {
    source: search.sourceNamespace
      ? {
          mode: 'labels',
          namespace: search.sourceNamespace,
          name: '',
          labels: search.sourceLabels ?? '',
          ip: '',
        }
      : {
          mode: source?.kind === 'ip' ? 'ip' : 'pod',
          ...named(source),
          labels: '',
          ip: source?.kind === 'ip' ? source.name : '',
        },
    destination: {
      mode: destination?.kind === 'ip' || destination?.kind === 'service' ? destination.kind : 'pod',
      ...named(destination),
      labels: '',
      ip: destination?.kind === 'ip' ? destination.name : '',
    },
    port: search.port === undefined ? '' : String(search.port),
    protocol: search.protocol ?? 'TCP',
  };
}

/** A port field's text for the URL: a number when it is one (the router keeps numbers bare). */
export function portOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The question a filled-in form asks, as the agent's query parameters. */
export function searchOf(draft: Draft): NetpolSearch {
  const { source: from, destination: to } = draft;
  const named = (end: EndpointDraft<string>) => `${end.mode}/${end.namespace.trim()}/${end.name.trim()}`;
  const source =
    from.mode === 'labels'
      ? { sourceNamespace: from.namespace.trim(), sourceLabels: from.labels.trim() || undefined }
      : { source: from.mode === 'ip' ? `ip/${from.ip.trim()}` : named(from) };
  const destination = to.mode === 'ip' ? `ip/${to.ip.trim()}` : named(to);
  return { ...source, destination, port: portOf(draft.port), protocol: draft.protocol };
}

/** Whether the URL asks a question (the answer is then fetched). */
export const asks = (search: NetpolSearch) =>
  Boolean(search.destination && (search.source || search.sourceNamespace));
