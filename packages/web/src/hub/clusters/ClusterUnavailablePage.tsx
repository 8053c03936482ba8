import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { stringify } from 'yaml';
import { ApiError } from '../../api/errors.ts';
import { CodeBlock } from '../../ui/CodeBlock.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { formatTime, usePreferences } from '../preferences/preferences.ts';
import { useHubParams } from '../route-api.ts';
import { HubLink } from '../shell/HubLink.tsx';
import { since } from '../shell/time.ts';

type Cluster = HubAnswer<'/api/clusters/{id}'>;

const linkLook = 'font-medium text-teal-800 underline dark:text-teal-300';

/**
 * What a browser opening `/c/<cluster_id>/…` gets when the hub cannot hand it to the cluster's agent (ADR 0070):
 * the hub serves this page instead of its `{error, code}`. An offline cluster says so, when its agent was last
 * seen and how to reconnect it, and opens by itself once the agent is back; an unknown one says it is not in
 * your organizations. (Signed out, the shell sends you to sign in first and back here afterwards.)
 */
export function ClusterUnavailablePage() {
  const { clusterId = '' } = useHubParams('/signed-in/c/$clusterId/$');
  const cluster = useQuery({
    queryKey: ['cluster', clusterId],
    queryFn: ({ signal }) => hub.get('/api/clusters/{id}', { params: { id: clusterId }, signal }),
    refetchInterval: 3_000,
  });
  const connected = cluster.data?.connected;
  const seenOffline = useRef(false);
  useEffect(() => {
    if (connected === false) seenOffline.current = true;
    // The agent is back: the same address now opens the cluster's own pages.
    else if (connected && seenOffline.current) window.location.reload();
  }, [connected]);
  const gone = cluster.error instanceof ApiError && cluster.error.status === 404;
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-4">
      {cluster.isPending ? (
        <Loading what="the cluster" />
      ) : gone ? (
        <>
          <h1 className="text-xl font-semibold">No such cluster</h1>
          <p className="text-sm">
            No organization of yours has a cluster <span className="font-mono">{clusterId}</span>: it was
            removed, or the link belongs to an organization you are not a member of.{' '}
            <HubLink to="/" className={linkLook}>
              See your clusters
            </HubLink>
          </p>
        </>
      ) : cluster.isError ? (
        <ErrorMessage error={cluster.error} what="the cluster" />
      ) : cluster.data.connected ? (
        <>
          <h1 className="text-xl font-semibold">{cluster.data.name} is connected</h1>
          <p className="text-sm">
            Its agent is connected to the hub now.{' '}
            {/* A full load: a cluster's pages are its agent's UI, served through the tunnel. */}
            <a href={`/c/${cluster.data.id}/`} className={linkLook}>
              Open {cluster.data.name}
            </a>
          </p>
        </>
      ) : (
        <Offline cluster={cluster.data} />
      )}
    </div>
  );
}

function Offline({ cluster }: { cluster: Cluster }) {
  const preferences = usePreferences();
  const { reconnect } = cluster;
  return (
    <>
      <h1 className="text-xl font-semibold">{cluster.name} is offline</h1>
      <div className="flex flex-col gap-2 text-sm">
        <p>
          Its agent is not connected to the hub, so the cluster's pages cannot open.{' '}
          {cluster.lastSeenAt ? (
            <>
              It was last seen <strong>{since(cluster.lastSeenAt)} ago</strong> (
              {formatTime(cluster.lastSeenAt, preferences.data?.timeZone)}
              {cluster.agentVersion ? `, agent ${cluster.agentVersion}` : ''}).
            </>
          ) : (
            <>
              It has <strong>never connected</strong> since the cluster was registered{' '}
              {since(cluster.createdAt)} ago.
            </>
          )}
        </p>
        <p role="status">This page opens the cluster by itself as soon as its agent connects again.</p>
      </div>
      <Card title="Reconnect its agent">
        <ol className="flex list-decimal flex-col gap-4 pl-5 text-sm">
          <Step blocks={[['Check the agent', reconnect.check.join('\n')]]}>
            See whether the agent runs in the cluster, and what its log says (a refused token, a hub it cannot
            reach):
          </Step>
          <Step
            blocks={[
              ['Helm values', stringify(reconnect.values)],
              ['Point it at this hub', reconnect.pointHere.join('\n')],
            ]}
          >
            Its chart values must point at this hub, with its token in the secret they name; this upgrades its
            release to them, keeping the rest of its values:
          </Step>
          <Step blocks={[['Give it a new token', reconnect.newToken.join('\n')]]}>
            If its token was rotated or lost, an owner rotates it on the{' '}
            <HubLink to="/" className={linkLook}>
              Clusters
            </HubLink>{' '}
            page (the new token is shown once) and puts it in the secret:
          </Step>
          <Step blocks={[['Without the chart', reconnect.withoutChart.join('\n')]]}>
            An agent run outside the chart, with a kubeconfig, is started with the token and this hub:
          </Step>
        </ol>
      </Card>
    </>
  );
}

/** One step of reconnecting: what to do, then the values or commands for it, each in a block of its own. */
function Step({ children, blocks }: { children: ReactNode; blocks: [label: string, text: string][] }) {
  return (
    <li>
      <div className="flex flex-col gap-2">
        <p>{children}</p>
        {blocks.map(([label, text]) => (
          <CodeBlock key={label} label={label} text={text} />
        ))}
      </div>
    </li>
  );
}
