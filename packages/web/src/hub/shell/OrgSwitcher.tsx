import { useMutation } from '@tanstack/react-query';
import { controlLook } from '../../ui/forms.tsx';
import { type HubAnswer, hub } from '../api.ts';

type Account = HubAnswer<'/api/account'>;

/** The organization you act in: its name, or a picker when you belong to several. */
export function OrgSwitcher({ account }: { account: Account }) {
  const switchTo = useMutation({
    mutationFn: (currentOrgId: string) => hub.patch('/api/account', { body: { currentOrgId } }),
    // A full load: every page, list and role on screen belonged to the organization just left.
    onSuccess: () => window.location.assign('/'),
  });
  if (account.orgs.length < 2) return <p className="truncate font-medium">{account.currentOrg.name}</p>;
  return (
    <select
      aria-label="Organization"
      className={`${controlLook} py-1 font-medium`}
      value={account.currentOrg.id}
      disabled={switchTo.isPending}
      onChange={(e) => switchTo.mutate(e.target.value)}
    >
      {account.orgs.map((org) => (
        <option key={org.id} value={org.id}>
          {org.name} ({org.role})
        </option>
      ))}
    </select>
  );
}
