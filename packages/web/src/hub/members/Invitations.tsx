import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { controlLook, Field, rowButtonLook, SubmitButton } from '../../ui/forms.tsx';
import { Card, Empty, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { hub } from '../api.ts';
import { hubHealthQuery } from '../shell/health.ts';
import { ShownOnce } from '../shell/ShownOnce.tsx';
import { InvitationsUnavailable } from './InvitationsUnavailable.tsx';
import { type Role, roleMeaning, roles } from './roles.ts';

/** How long an invitation may wait to be accepted (the hub allows up to 30 days). */
const invitationLifetimes: [number, string][] = [
  [24, '1 day'],
  [72, '3 days'],
  [168, '7 days'],
  [720, '30 days'],
];

/**
 * Pending invitations, and a form that invites an e-mail address with a role and gives the link to send; on a hub
 * where no invitee could sign in, the form is off and says why.
 */
export function Invitations({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const health = useQuery(hubHealthQuery);
  const unavailable = health.data?.invitations === false;
  const reasonId = useId();
  const params = { org_id: orgId };
  const pending = useQuery({
    queryKey: ['invitations', orgId],
    queryFn: ({ signal }) => hub.get('/api/orgs/{org_id}/invitations', { params, signal }),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [expiresInHours, setExpiresInHours] = useState(168);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['invitations'] });
  const invite = useMutation({
    mutationFn: () =>
      hub.post('/api/orgs/{org_id}/invitations', { params, body: { email, role, expiresInHours } }),
    onSuccess: () => {
      setEmail('');
      refresh();
    },
  });
  const withdraw = useMutation({
    mutationFn: (id: string) =>
      hub.remove('/api/orgs/{org_id}/invitations/{id}', { params: { ...params, id } }),
    onSettled: refresh,
  });
  return (
    <Card title="Invitations">
      {unavailable && (
        <div className="mb-3">
          <InvitationsUnavailable id={reasonId} to="owner" />
        </div>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          invite.mutate();
        }}
      >
        <fieldset
          disabled={unavailable}
          aria-describedby={unavailable ? reasonId : undefined}
          className="flex flex-wrap items-end gap-3"
        >
          <Field label="E-mail" type="email" required value={email} onText={setEmail} />
          <label className="flex flex-col gap-1 text-sm">
            Role
            <select className={controlLook} value={role} onChange={(e) => setRole(e.target.value as Role)}>
              {roles.map((r) => (
                <option key={r} value={r}>
                  {r} ({roleMeaning[r]})
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Valid for
            <select
              className={controlLook}
              value={expiresInHours}
              onChange={(e) => setExpiresInHours(Number(e.target.value))}
            >
              {invitationLifetimes.map(([hours, words]) => (
                <option key={hours} value={hours}>
                  {words}
                </option>
              ))}
            </select>
          </label>
          <SubmitButton busy={invite.isPending} label="Invite" busyLabel="Inviting…" />
        </fieldset>
      </form>
      {invite.isError && (
        <div className="mt-3">
          <ErrorMessage error={invite.error} what="them" verb="invite" />
        </div>
      )}
      {invite.data && (
        <div className="mt-4 flex flex-col gap-2 text-sm">
          <ShownOnce
            label={`Invitation link for ${invite.data.email}`}
            secret={`${window.location.origin}/accept-invitation?token=${encodeURIComponent(invite.data.token)}`}
          />
          <p className="text-slate-600 dark:text-slate-400">
            Send it to {invite.data.email}; they sign in with that e-mail and join as {invite.data.role} until{' '}
            {invite.data.expiresAt.slice(0, 10)}.
          </p>
        </div>
      )}
      <div className="mt-4">
        <Loaded query={pending} what="the invitations">
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No pending invitations.</Empty>
            ) : (
              <Table columns={['E-mail', 'Role', 'Expires', { label: '', right: true }]}>
                {data.items.map((invitation) => (
                  <tr key={invitation.id}>
                    <td className="py-2">{invitation.email}</td>
                    <td>{invitation.role}</td>
                    <td>{invitation.expiresAt.slice(0, 10)}</td>
                    <td className="text-right">
                      <button
                        type="button"
                        aria-label={`Withdraw the invitation of ${invitation.email}`}
                        className={rowButtonLook}
                        onClick={() => withdraw.mutate(invitation.id)}
                      >
                        Withdraw
                      </button>
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Loaded>
      </div>
    </Card>
  );
}
