/** The Access page's question, in the URL so a link keeps it (docs/access.md). */
export interface AccessSearch {
  /** Who may `verb` `kind` (`subresource`) in the page's namespace? */
  verb?: string;
  kind?: string;
  subresource?: string;
  /** What may this subject do in the page's namespace? */
  subjectKind?: SubjectKind;
  subject?: string;
  /** A ServiceAccount's own namespace, when it is not the page's. */
  serviceAccountNamespace?: string;
}

export const subjectKinds = ['User', 'Group', 'ServiceAccount'] as const;
export type SubjectKind = (typeof subjectKinds)[number];
export const verbs = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', '*'];

const text = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

export function accessSearch(search: Record<string, unknown>): AccessSearch {
  const subjectKind = subjectKinds.find((k) => k === search.subjectKind);
  return {
    verb: text(search.verb),
    kind: text(search.kind),
    subresource: text(search.subresource),
    ...(subjectKind ? { subjectKind } : {}),
    subject: text(search.subject),
    serviceAccountNamespace: text(search.serviceAccountNamespace),
  };
}

/** kubectl's way of naming a resource of a group: `deployments.apps`, `pods` for the core group. */
export const resourceName = (resource: string, group: string) => (group ? `${resource}.${group}` : resource);
