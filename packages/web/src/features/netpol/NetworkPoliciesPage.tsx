import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { mutedLook, panelLook } from '../../ui/controls.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { MatrixView } from './MatrixView.tsx';
import { asks, type NetpolSearch } from './query.ts';
import { TesterForm } from './TesterForm.tsx';
import { type ConnectionResult, fieldError } from './types.ts';
import { Verdict } from './Verdict.tsx';

/** The question of the URL, as the agent's query parameters. */
const questionOf = (s: NetpolSearch) => ({
  source: s.source,
  sourceNamespace: s.sourceNamespace,
  sourceLabels: s.sourceLabels,
  destination: s.destination,
  port: s.port,
  protocol: s.protocol,
});

/** The connection tester: asks the agent whether the NetworkPolicies let it through, and shows why. */
function Tester({
  search,
  ask,
}: {
  search: NetpolSearch & { namespace?: string };
  ask: (s: NetpolSearch) => void;
}) {
  const question = questionOf(search);
  const evaluation = useQuery({
    queryKey: ['netpol', 'evaluate', question],
    queryFn: async ({ signal }) =>
      (await get('/api/network-policies/evaluate', {
        query: question,
        signal,
      })) as ConnectionResult,
    enabled: asks(search),
  });
  return (
    <div className="flex flex-col gap-4">
      <div className={`${panelLook} pb-4`}>
        <TesterForm search={search} namespace={search.namespace} error={evaluation.error} ask={ask} />
      </div>
      {!asks(search) ? (
        <p className={`text-sm ${mutedLook}`}>
          Pick a source and a destination, then Evaluate: the answer names the policies and rules that decide.
        </p>
      ) : evaluation.isPending ? (
        <Loading what="the verdict" />
      ) : evaluation.isError ? (
        fieldError(evaluation.error) ? null : (
          <ErrorMessage error={evaluation.error} what="the verdict" verb="get" />
        )
      ) : (
        <Verdict result={evaluation.data} search={search} />
      )}
    </div>
  );
}

/**
 * NetworkPolicies, evaluated: whether one connection is allowed (egress of the source, ingress of the
 * destination, the exact rules that decide), or a namespace's pod-to-pod matrix (`?matrix=<namespace>`).
 */
export function NetworkPoliciesPage() {
  const search = useSearch({ from: '/network-policies' });
  const navigate = useNavigate();
  const go = (next: NetpolSearch) =>
    void navigate({ to: '.', search: (prev) => ({ namespace: prev.namespace, ...next }) });
  const tab = search.matrix ? 'matrix' : 'test';
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">Network policies</h1>
        <p className={`text-sm ${mutedLook}`}>
          What the cluster's NetworkPolicies allow, evaluated by the agent as Kubernetes enforces them
        </p>
      </div>
      <Tabs
        label="Network policy views"
        tabs={[
          { id: 'test', label: 'Test a connection' },
          { id: 'matrix', label: 'Namespace matrix' },
        ]}
        current={tab}
        choose={(t) =>
          go(
            t === 'matrix'
              ? { matrix: search.namespace ?? 'default', port: search.port, protocol: search.protocol }
              : { port: search.port, protocol: search.protocol },
          )
        }
      >
        {tab === 'matrix' ? (
          <MatrixView key={search.matrix} search={search} show={go} />
        ) : (
          <Tester search={search} ask={go} />
        )}
      </Tabs>
    </div>
  );
}
