import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/errors.ts';
import { Card, ErrorMessage } from '../../ui/states.tsx';
import { hub } from '../api.ts';
import { useHubSearch } from '../route-api.ts';
import { HubLink } from '../shell/HubLink.tsx';
import { accountQuery } from '../shell/HubShell.tsx';
import { hubHealthQuery } from '../shell/health.ts';
import { InvitationsUnavailable } from './InvitationsUnavailable.tsx';

export interface AcceptSearch {
  token?: string;
}

/**
 * Where an invitation link lands, signed in: join the organization the invitation is for; on a hub where no
 * invitee can sign in, why the link cannot be used.
 */
export function AcceptInvitationPage() {
  const { token } = useHubSearch('/signed-in/accept-invitation');
  const account = useQuery(accountQuery);
  const health = useQuery(hubHealthQuery);
  const accept = useMutation({
    mutationFn: (invitation: string) => hub.post('/api/invitations/accept', { body: { token: invitation } }),
    // A full load: the session now acts in the new organization, and every page should show it.
    onSuccess: () => window.location.assign('/'),
  });
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Join an organization</h1>
      <Card title="Invitation">
        {!token ? (
          <p className="text-sm">This link has no invitation in it; ask for the link again.</p>
        ) : health.data?.invitations === false ? (
          <InvitationsUnavailable to="invitee" />
        ) : (
          <div className="flex flex-col gap-3 text-sm">
            <p>
              You are signed in as <strong>{account.data?.user.email}</strong>. The invitation works for the
              e-mail address it was sent to.
            </p>
            <button
              type="button"
              disabled={accept.isPending}
              className="self-start rounded-md bg-teal-700 px-3 py-1.5 font-medium text-white hover:bg-teal-800 disabled:opacity-60"
              onClick={() => accept.mutate(token)}
            >
              {accept.isPending ? 'Joining…' : 'Accept the invitation'}
            </button>
            {accept.error instanceof ApiError && accept.error.status === 404 && account.data ? (
              // Signing in with the invited e-mail already lets a new user in: the link has nothing left to do.
              <div role="status" className="flex flex-col gap-2">
                <p>
                  This invitation was used or has expired. Signing in with the invited address lets you in at
                  once: you now act in <strong>{account.data.currentOrg.name}</strong> as{' '}
                  {account.data.currentOrg.role}.
                </p>
                <HubLink to="/" className="font-medium text-teal-800 underline dark:text-teal-300">
                  Go to the clusters
                </HubLink>
              </div>
            ) : (
              accept.isError && <ErrorMessage error={accept.error} what="the invitation" verb="accept" />
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
