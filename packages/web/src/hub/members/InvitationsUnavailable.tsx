import { HubLink } from '../shell/HubLink.tsx';

/**
 * Why this hub takes no invitations (ADR 0069): it signs in no one but the break-glass admin, so an invitee could
 * never accept. Said to the owner at the invitation form, and to the invitee where the link lands.
 */
export function InvitationsUnavailable({ id, to }: { id?: string; to: 'owner' | 'invitee' }) {
  return (
    <div
      id={id}
      role="status"
      className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      {to === 'owner' ? (
        <>
          <p className="font-medium">Invitations need single sign-on</p>
          <p className="mt-1">
            Only the break-glass admin can sign in to this hub, so no one you invite could accept. Set up{' '}
            <HubLink to="/settings/sso" className="font-medium underline">
              single sign-on
            </HubLink>{' '}
            with your identity provider and restart the hub with its values; then invite people here.
          </p>
        </>
      ) : (
        <>
          <p className="font-medium">This invitation cannot be accepted on this hub yet</p>
          <p className="mt-1">
            The hub signs in no one but its break-glass admin: single sign-on through an identity provider is
            not set up, so the person invited has no way to sign in and join. Ask whoever sent the link to set
            it up; the link works then, until the invitation expires.
          </p>
        </>
      )}
    </div>
  );
}
