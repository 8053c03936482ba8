import { useQuery } from '@tanstack/react-query';
import { CodeBlock } from '../../ui/CodeBlock.tsx';
import { Card, Loaded } from '../../ui/states.tsx';
import { hub } from '../api.ts';

/**
 * What the agent's Helm chart grants and an agent started any other way (`binnacle agent --cloud-url`, one's own
 * manifests) needs before anyone sees anything through the hub: the agent's own ClusterRole and binding, and the
 * bindings of the hub's roles (or, with IdP cluster access, of IdP groups). The list's access flags link here.
 */
export function AgentRbac() {
  const rbac = useQuery({
    queryKey: ['agent-rbac'],
    queryFn: ({ signal }) => hub.get('/api/agent-rbac', { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <div id="agent-rbac" className="scroll-mt-4">
      <Card title="Bindings for an agent outside the chart">
        <Loaded query={rbac} what="the bindings">
          {(data) => (
            <div className="flex flex-col gap-3 text-sm">
              <p>
                The agent&apos;s Helm chart creates these. An agent started another way needs them, or every
                page of its cluster is empty for everyone:
              </p>
              <ul className="list-disc pl-5">
                <li>
                  its own identity reads everything for its cache, impersonates the people the hub forwards
                  and asks the API server what they may do — the ClusterRole below, bound to the
                  ServiceAccount or kubeconfig user it runs as;
                </li>
                <li>
                  {data.clusterAccess === 'roles'
                    ? "the hub's roles act in the cluster as the groups binnacle:role:owner, member and viewer, bound as the chart binds them to admin, edit and view;"
                    : 'with IdP cluster access, people act as their IdP groups (binnacle:idp:<group>): bind those you want to let in;'}
                </li>
                <li>the last command checks that you may now list pods there (as the hub forwards you).</li>
              </ul>
              <CodeBlock label="RBAC commands" text={data.commands.join('\n')} />
              <CodeBlock label="binnacle-agent-rbac.yaml" text={data.manifest} />
            </div>
          )}
        </Loaded>
      </Card>
    </div>
  );
}
