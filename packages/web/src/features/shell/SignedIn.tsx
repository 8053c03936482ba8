import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';

/**
 * Who is signed in to the agent itself (`--auth-mode proxy|oidc`), and with OIDC a way out. Nothing in mode
 * none, nor in cloud mode, where the hub's own pages show the person.
 */
export function SignedIn() {
  const me = useQuery({
    queryKey: ['auth-me'],
    queryFn: ({ signal }) => get('/api/auth/me', { signal }),
    staleTime: 60_000,
  });
  const data = me.data;
  if (!data?.authEnabled || !data.username || data.authMode === 'cloud') return null;
  return (
    <div className="flex items-center gap-2 text-sm">
      <span className="max-w-48 truncate text-slate-600 dark:text-slate-400" title={data.groups?.join(', ')}>
        {data.username}
      </span>
      {data.authMode === 'oidc' && (
        <a
          href="auth/logout"
          className="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Sign out
        </a>
      )}
    </div>
  );
}
