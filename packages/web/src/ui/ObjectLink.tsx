import { Link } from '@tanstack/react-router';

/**
 * A link to an object's page; the resources routes take a Kind as well as a plural (`Pod`, `pods`). It keeps the
 * page's namespace filter and moment (`at`, time travel): from a page of the past, the object as it was then.
 */
export function ObjectLink({ kind, namespace, name }: { kind: string; namespace?: string; name: string }) {
  return (
    <Link
      to="/resources/$kind/$namespace/$name"
      params={{ kind, namespace: namespace || '_', name }}
      search={(prev) => ({ namespace: prev.namespace, at: prev.at })}
      className="font-mono text-xs text-teal-800 hover:underline dark:text-teal-300"
    >
      {namespace ? `${namespace}/` : ''}
      {name}
    </Link>
  );
}
