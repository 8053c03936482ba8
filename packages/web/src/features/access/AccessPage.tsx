import { useNavigate, useSearch } from '@tanstack/react-router';
import { mutedLook } from '../../ui/controls.tsx';
import { SubjectRules } from './SubjectRules.tsx';
import type { AccessSearch } from './search.ts';
import { WhoCan } from './WhoCan.tsx';

/** Access (docs/access.md): what a subject may do, and who may do something, in the namespace picked above. */
export function AccessPage() {
  const search = useSearch({ from: '/access' });
  const navigate = useNavigate();
  const ask = (next: AccessSearch) => void navigate({ to: '.', search: (prev) => ({ ...prev, ...next }) });
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Access</h1>
        <p className={`text-sm ${mutedLook}`}>
          RBAC as the API server evaluates it, in{' '}
          {search.namespace ?? 'the default namespace (pick one above)'}
        </p>
      </div>
      <WhoCan search={search} namespace={search.namespace} ask={ask} />
      <SubjectRules search={search} namespace={search.namespace ?? 'default'} ask={ask} />
    </div>
  );
}
