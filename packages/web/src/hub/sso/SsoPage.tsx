import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CodeBlock } from '../../ui/CodeBlock.tsx';
import { controlLook, Field, SubmitButton } from '../../ui/forms.tsx';
import { Card, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { hub } from '../api.ts';
import { accountQuery } from '../shell/HubShell.tsx';

/**
 * Single sign-on: what is in force (read-only — the chart values are the source of truth), and for the owners
 * of the hub's first organization (the only ones the hub lets generate settings, ADR 0049) a form that checks the IdP's discovery and generates the chart values and commands to apply. Nothing is stored.
 */
export function SsoPage() {
  const account = useQuery(accountQuery);
  const org = account.data?.currentOrg;
  const params = { org_id: org?.id ?? '' };
  const inForce = useQuery({
    queryKey: ['sso', org?.id],
    enabled: Boolean(org),
    queryFn: ({ signal }) => hub.get('/api/orgs/{org_id}/sso', { params, signal }),
  });
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Single sign-on</h1>
      <Card title="In force">
        <Loaded query={inForce} what="the SSO settings">
          {(data) => (
            <dl className="grid grid-cols-[14rem_1fr] gap-x-4 gap-y-2 text-sm">
              {(
                [
                  ['Sign-in through an IdP', data.oidcEnabled ? 'on' : 'off'],
                  ['Issuer', data.issuer ?? '—'],
                  ['Client ID', data.clientId ?? '—'],
                  ['Redirect URI to register', data.redirectUri],
                  [
                    'Groups claim',
                    data.groupForwarding ? `${data.groupsClaim} (forwarded to clusters)` : 'off',
                  ],
                  ['Cluster access', data.clusterAccess],
                  ['Extra scopes', data.scopes.join(', ') || 'none'],
                  ['Refresh tokens', data.useRefreshToken ? 'on' : 'off'],
                  ['Break-glass admin', data.breakGlass ? 'configured' : 'none'],
                ] as const
              ).map(([term, value]) => (
                <div key={term} className="contents">
                  <dt className="text-slate-600 dark:text-slate-400">{term}</dt>
                  <dd className="font-mono text-xs leading-5">{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </Loaded>
      </Card>
      {org && inForce.data?.mayGenerate && <SsoSetup orgId={org.id} />}
      {org?.role === 'owner' && inForce.data?.mayGenerate === false && (
        <Card title="Generate settings">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Single sign-on is set for the whole hub, in its chart values, so only the owners of the hub's
            first organization generate them here. Ask one of them, or the hub's operator.
          </p>
        </Card>
      )}
    </div>
  );
}

/** The form of Settings → SSO: the IdP's details in, its discovery checked, the chart values and commands out. */
function SsoSetup({ orgId }: { orgId: string }) {
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const [clientSecret, setClientSecret] = useState('');
  const [groupsClaim, setGroupsClaim] = useState('groups');
  const [scopes, setScopes] = useState('');
  const [clusterAccess, setClusterAccess] = useState<'idp' | 'roles'>('idp');
  const setup = useMutation({
    mutationFn: () =>
      hub.post('/api/orgs/{org_id}/sso/setup', {
        params: { org_id: orgId },
        body: {
          issuer,
          clientId,
          clientSecret,
          groupsClaim,
          scopes: scopes.split(/[\s,]+/).filter(Boolean),
          clusterAccess,
        },
      }),
  });
  const result = setup.data;
  return (
    <Card title="Set up">
      <form
        className="grid grid-cols-1 gap-3 md:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          setup.mutate();
        }}
      >
        <Field
          label="Issuer URL"
          type="url"
          required
          placeholder="https://idp.example.com/realms/acme"
          value={issuer}
          onText={setIssuer}
        />
        <Field label="Client ID" required value={clientId} onText={setClientId} />
        <Field
          label="Client secret"
          type="password"
          autoComplete="off"
          required
          value={clientSecret}
          onText={setClientSecret}
        />
        <Field
          label="Groups claim (empty: no group forwarding)"
          value={groupsClaim}
          onText={setGroupsClaim}
        />
        <Field label="Extra scopes (e.g. groups, offline_access)" value={scopes} onText={setScopes} />
        <label className="flex flex-col gap-1 text-sm">
          Cluster access
          <select
            className={controlLook}
            value={clusterAccess}
            onChange={(e) => setClusterAccess(e.target.value as 'idp' | 'roles')}
          >
            <option value="idp">idp (RoleBindings to the IdP's groups decide)</option>
            <option value="roles">roles (the hub role's default bindings)</option>
          </select>
        </label>
        <div>
          <SubmitButton busy={setup.isPending} label="Check and generate" busyLabel="Checking the IdP…" />
        </div>
      </form>
      {setup.isError && (
        <div className="mt-3">
          <ErrorMessage error={setup.error} what="the settings" verb="generate" />
        </div>
      )}
      {result && (
        <div className="mt-4 flex flex-col gap-3 text-sm">
          <p
            role="status"
            className={
              result.discovery.ok
                ? 'text-emerald-800 dark:text-emerald-300'
                : 'text-red-800 dark:text-red-300'
            }
          >
            {result.discovery.ok
              ? `The IdP answered its discovery document${result.discovery.endSessionEndpoint ? ', with a logout endpoint' : ''}.`
              : `The IdP's discovery failed: ${result.discovery.error ?? 'no answer'}.`}
          </p>
          <p>
            Register the redirect URI <code className="font-mono text-xs">{result.redirectUri}</code> (and,
            for sign-out, <code className="font-mono text-xs">{result.signOutRedirectUri}</code>) at the IdP,
            with the grant types {result.grantTypes.join(' and ')}. Then apply these values; the chart values
            stay the source of truth.
          </p>
          <CodeBlock label="Helm values" text={result.valuesYaml} />
          <CodeBlock label="Commands" text={result.commands.join('\n')} />
        </div>
      )}
    </Card>
  );
}
