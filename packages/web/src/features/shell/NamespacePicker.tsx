import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';

/** The namespace every page shows; kept in the URL (`?namespace=`), so links and reloads keep it. */
export function NamespacePicker() {
  const { namespace } = useSearch({ strict: false });
  const navigate = useNavigate();
  const namespaces = useQuery({
    queryKey: ['namespaces'],
    queryFn: ({ signal }) => get('/api/namespaces', { signal }),
  });
  const names = namespaces.data?.items.map((ns) => ns.name) ?? [];
  // The namespace of the URL stays pickable while the list loads, or when you may not list namespaces at all.
  const listed = namespace && !names.includes(namespace) ? [namespace, ...names] : names;
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="text-slate-600 dark:text-slate-400">Namespace</span>
      <select
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-700 dark:bg-slate-800"
        value={namespace ?? ''}
        onChange={(event) =>
          void navigate({
            to: '.',
            search: (prev) => ({ ...prev, namespace: event.target.value || undefined }),
          })
        }
      >
        <option value="">All namespaces</option>
        {listed.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </label>
  );
}
