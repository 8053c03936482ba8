import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { controlLook, rowButtonLook } from '../../ui/forms.tsx';
import { Card, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { accountQuery } from '../shell/HubShell.tsx';
import { since } from '../shell/time.ts';
import { Invitations } from './Invitations.tsx';
import { type Role, roleMeaning, roles } from './roles.ts';

type Member = HubAnswer<'/api/orgs/{org_id}/members'>['items'][number];
/** The organization's members and their roles; owners change roles, remove members and invite. */
export function MembersPage() {
  const account = useQuery(accountQuery);
  const org = account.data?.currentOrg;
  const owner = org?.role === 'owner';
  const queryClient = useQueryClient();
  const members = useQuery({
    queryKey: ['members', org?.id],
    enabled: Boolean(org),
    queryFn: ({ signal }) =>
      hub.get('/api/orgs/{org_id}/members', {
        params: { org_id: org?.id ?? '' },
        query: { limit: 500 },
        signal,
      }),
  });
  const [removing, setRemoving] = useState<Member>();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['members'] });
  const params = (m: Member) => ({ org_id: org?.id ?? '', user_id: m.userId });
  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      hub.patch('/api/orgs/{org_id}/members/{user_id}', { params: params(member), body: { role } }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (member: Member) =>
      hub.remove('/api/orgs/{org_id}/members/{user_id}', { params: params(member) }),
    onSuccess: () => setRemoving(undefined),
    onSettled: refresh,
  });
  const items = members.data?.items ?? [];
  const owners = items.filter((m) => m.role === 'owner').length;
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Members</h1>
      <Card title={`Members of ${org?.name ?? 'this organization'}`}>
        <Loaded query={members} what="the members">
          {() => (
            <>
              <Table
                columns={['E-mail', 'Name', 'Role', 'Joined', 'Last sign-in', { label: '', right: true }]}
              >
                {items.map((member) => {
                  // The organization always keeps an owner; the break-glass admin is always one.
                  const fixed = member.breakGlass || (member.role === 'owner' && owners === 1);
                  return (
                    <tr key={member.userId}>
                      <td className="py-2 font-medium">{member.email}</td>
                      <td>{member.name}</td>
                      <td>
                        {owner && !fixed ? (
                          <select
                            aria-label={`Role of ${member.email}`}
                            className={controlLook}
                            value={member.role}
                            onChange={(e) => changeRole.mutate({ member, role: e.target.value as Role })}
                          >
                            {roles.map((r) => (
                              <option key={r} value={r}>
                                {r} ({roleMeaning[r]})
                              </option>
                            ))}
                          </select>
                        ) : (
                          <span title={roleMeaning[member.role]}>{member.role}</span>
                        )}
                      </td>
                      <td>{since(member.joinedAt)} ago</td>
                      <td>{member.lastSignInAt ? `${since(member.lastSignInAt)} ago` : 'never'}</td>
                      <td className="text-right">
                        {owner && !fixed && (
                          <button
                            type="button"
                            aria-label={`Remove ${member.email}`}
                            className={rowButtonLook}
                            onClick={() => setRemoving(member)}
                          >
                            Remove
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </Table>
              {owner && (
                <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
                  An organization always keeps an owner: the last one cannot be demoted or removed (promote
                  someone else first), and the break-glass admin is always an owner.
                </p>
              )}
              {changeRole.isError && (
                <div className="mt-3">
                  <ErrorMessage error={changeRole.error} what="the role" verb="change" />
                </div>
              )}
            </>
          )}
        </Loaded>
      </Card>
      {owner && org && <Invitations orgId={org.id} />}
      {removing && (
        <ConfirmDialog
          title={`Remove ${removing.email}?`}
          confirm="Remove"
          busy={remove.isPending}
          onCancel={() => setRemoving(undefined)}
          onConfirm={() => remove.mutate(removing)}
        >
          <p>Their sessions end and their access tokens stop working at once.</p>
          {remove.isError && <ErrorMessage error={remove.error} what="them" verb="remove" />}
        </ConfirmDialog>
      )}
    </div>
  );
}
