/** A comma-separated query value as a list (blanks dropped); undefined when absent. */
export const csv = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean);

/** The namespace filter every view takes: `?namespaces=a,b` (preferred) or `?namespace=a`; undefined: all. */
export const requestedNamespaces = (query: { namespaces?: string; namespace?: string }) =>
  csv(query.namespaces) ?? (query.namespace ? [query.namespace] : undefined);
