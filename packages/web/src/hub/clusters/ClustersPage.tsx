import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { stringify } from 'yaml';
import { CodeBlock } from '../../ui/CodeBlock.tsx';
import { Field, SubmitButton } from '../../ui/forms.tsx';
import { Card, Empty, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { usePreferences } from '../preferences/preferences.ts';
import { clusterHome } from '../shell/cluster-home.ts';
import { accountQuery } from '../shell/HubShell.tsx';
import { ShownOnce } from '../shell/ShownOnce.tsx';
import { since } from '../shell/time.ts';
import { AccessFlag } from './AccessFlag.tsx';
import { AgentRbac } from './AgentRbac.tsx';
import { ClusterActions } from './ClusterActions.tsx';

type Cluster = HubAnswer<'/api/clusters'>['items'][number];

/** Connected now, or when its agent was last seen. */
function Connection({ cluster }: { cluster: Cluster }) {
  const [dot, words] = cluster.connected
    ? ['bg-emerald-600', 'Connected']
    : cluster.lastSeenAt
      ? ['bg-slate-400', `Last seen ${since(cluster.lastSeenAt)} ago`]
      : ['bg-amber-500', 'Never connected'];
  return (
    <span className="flex items-center gap-1.5">
      <span aria-hidden="true" className={`inline-block h-2 w-2 rounded-full ${dot}`} />
      {words}
    </span>
  );
}

/** The organisation's clusters, their agents' connection live; an owner registers one and gets its install. */
export function ClustersPage() {
  const account = useQuery(accountQuery);
  const preferences = usePreferences();
  const clusters = useQuery({
    queryKey: ['clusters'],
    queryFn: ({ signal }) => hub.get('/api/clusters', { signal }),
    refetchInterval: 3_000,
  });
  const owner = account.data?.currentOrg.role === 'owner';
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Clusters</h1>
      <Card title="Clusters of this organization">
        <Loaded query={clusters} what="the clusters">
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No cluster yet.{owner ? ' Register one below and install its agent.' : ''}</Empty>
            ) : (
              <Table
                columns={[
                  'Name',
                  'Agent',
                  'Version',
                  'Token',
                  'Registered',
                  ...(owner ? [{ label: '', right: true as const }] : []),
                ]}
              >
                {data.items.map((cluster) => (
                  <tr key={cluster.id}>
                    <td className="py-2">
                      {/* A full load: a cluster's pages are its agent's UI, served through the tunnel. */}
                      <a
                        href={clusterHome(cluster.id, preferences.data?.defaultNamespace)}
                        className="font-medium text-teal-800 hover:underline dark:text-teal-300"
                      >
                        {cluster.name}
                      </a>
                      {cluster.id === preferences.data?.defaultClusterId && (
                        <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">
                          your default
                        </span>
                      )}
                    </td>
                    <td>
                      <Connection cluster={cluster} />
                      {cluster.connected && <AccessFlag clusterId={cluster.id} owner={owner} />}
                    </td>
                    <td className="font-mono text-xs">{cluster.agentVersion ?? '—'}</td>
                    <td className="font-mono text-xs">…{cluster.tokenHint}</td>
                    <td>{since(cluster.createdAt)} ago</td>
                    {owner && (
                      <td>
                        <ClusterActions cluster={cluster} />
                      </td>
                    )}
                  </tr>
                ))}
              </Table>
            )
          }
        </Loaded>
      </Card>
      {owner && <RegisterCluster />}
      {owner && <AgentRbac />}
    </div>
  );
}

type Runs = 'install' | 'running' | 'outside';

const runChoices: [Runs, string][] = [
  ['install', 'Install the agent with its Helm chart'],
  ['running', 'The agent already runs there (keep its values and bindings)'],
  ['outside', 'The agent runs outside the chart (binnacle agent --cloud-url)'],
];

/** The connect page: a name in, the agent's token, chart values and the commands to install it out. */
function RegisterCluster() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [runs, setRuns] = useState<Runs>('install');
  const connect = useMutation({
    mutationFn: () =>
      hub.post('/api/clusters/connect', {
        body: { name, alreadyRunning: runs === 'running', outsideChart: runs === 'outside' },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['clusters'] }),
  });
  return (
    <Card title="Register a cluster">
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          connect.mutate();
        }}
      >
        <Field
          label="Name (lower-case letters, digits and dashes)"
          required
          maxLength={63}
          value={name}
          onText={setName}
        />
        <fieldset className="flex flex-col gap-1 pb-1 text-sm">
          <legend className="sr-only">How the agent runs</legend>
          {runChoices.map(([value, label]) => (
            <label key={value} className="flex items-center gap-2">
              <input
                type="radio"
                name="runs"
                className="h-4 w-4 accent-teal-700"
                checked={runs === value}
                onChange={() => setRuns(value)}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <SubmitButton busy={connect.isPending} label="Register" busyLabel="Registering…" />
      </form>
      {connect.isError && (
        <div className="mt-3">
          <ErrorMessage error={connect.error} what="the cluster" verb="register" />
        </div>
      )}
      {connect.data && (
        <div className="mt-4 flex flex-col gap-3 text-sm">
          <ShownOnce
            label={`Agent token of ${connect.data.cluster.name}`}
            secret={connect.data.cluster.token}
          />
          <p>
            {Object.keys(connect.data.values).length === 0
              ? 'Give the identity the agent runs as the bindings below, then start it with these commands'
              : 'Install the agent in that cluster with these commands'}{' '}
            (cluster access: {connect.data.clusterAccess}); it shows as connected here once it is up.
          </p>
          <CodeBlock label="Install commands" text={connect.data.commands.join('\n')} />
          {Object.keys(connect.data.values).length > 0 && (
            <CodeBlock label="Helm values" text={stringify(connect.data.values)} />
          )}
        </div>
      )}
    </Card>
  );
}
