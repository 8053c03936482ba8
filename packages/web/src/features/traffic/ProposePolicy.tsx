import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { post } from '../../api/client.ts';
import { buttonLook, mutedLook, primaryLook } from '../../ui/controls.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { DraftEditor } from '../editor/EditFlow.tsx';
import { PolicyLink } from '../netpol/PolicyLink.tsx';
import { ImpactView, TrafficImpact } from '../netpol/TrafficImpact.tsx';
import type { TrafficWindow } from './search.ts';

/** The proposal once made: its YAML as edited, and whether the impact shown is of the edit (tested) or the original. */
function Proposal({ namespace, answer }: { namespace: string; answer: Awaited<ReturnType<typeof propose>> }) {
  const queryClient = useQueryClient();
  const draft = useRef(answer.yaml);
  const [tested, setTested] = useState<string>();
  const apply = useMutation({
    mutationFn: (text: string) => post('/api/resources/apply', { body: text }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['network-policies'] }),
  });
  if (!answer.traffic.available || !answer.impact)
    return (
      <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
        Nothing to propose: {answer.traffic.available ? 'no observed traffic' : answer.traffic.reason}.
      </p>
    );
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        One policy per workload of {namespace}, allowing exactly the flows observed (its pods by their stable
        labels, other namespaces by name, the ports seen). Edit it, test the edit against the same traffic,
        then apply it as yourself.
      </p>
      {answer.skipped.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer">
            Observed flows it does not allow ({answer.skipped.length})
          </summary>
          <ul className="mt-1 flex flex-col gap-0.5">
            {answer.skipped.map((flow) => (
              <li key={`${flow.source.id}|${flow.destination.id}|${flow.protocol}|${flow.port ?? ''}`}>
                <span className="font-mono text-xs">
                  {flow.source.name} → {flow.destination.name} {flow.protocol} {flow.port ?? ''}
                </span>
                : {flow.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <DraftEditor initial={answer.yaml} label={`Proposed NetworkPolicies for ${namespace}`} draft={draft} />
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonLook} onClick={() => setTested(draft.current)}>
          Test the edit
        </button>
        <button
          type="button"
          className={primaryLook}
          disabled={apply.isPending}
          onClick={() => apply.mutate(draft.current)}
        >
          {apply.isPending ? 'Applying…' : 'Apply'}
        </button>
      </div>
      {apply.isError && <ErrorMessage error={apply.error} what="the policies" verb="apply" />}
      {apply.isSuccess && (
        <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300">
          Applied:{' '}
          {apply.data.results.map((result, i) => (
            <span key={result.index}>
              {i > 0 && ', '}
              <PolicyLink policy={`${result.namespace ?? namespace}/${result.name}`} />
            </span>
          ))}
          . Each opens in the YAML editor.
        </p>
      )}
      <section aria-label="Traffic impact" className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold">
          Traffic impact {tested === undefined ? 'of the proposal' : 'of your edit'}
        </h3>
        {tested === undefined ? (
          <ImpactView impact={answer.impact} />
        ) : (
          <TrafficImpact change={{ yaml: tested }} />
        )}
      </section>
    </div>
  );
}

const propose = (namespace: string, since: TrafficWindow) =>
  post('/api/network-policies/propose', { body: { namespace, since } });

/**
 * "Propose a policy" on the Traffic page: least-privilege NetworkPolicies for the namespace shown, written from
 * the window's observed flows, with their impact; editable, testable and applied as the caller.
 */
export function ProposePolicy({ namespace, since }: { namespace?: string; since: TrafficWindow }) {
  const proposal = useMutation({ mutationFn: () => propose(namespace as string, since) });
  const button = (
    <button
      type="button"
      className={buttonLook}
      disabled={!namespace || proposal.isPending}
      title={namespace ? undefined : 'Choose a namespace first'}
      onClick={() => proposal.mutate()}
    >
      {proposal.isSuccess ? 'Propose again' : 'Propose a policy'}
    </button>
  );
  if (!namespace || proposal.isIdle)
    return (
      <div className="flex items-center gap-2">
        {button}
        {!namespace && <span className={`text-xs ${mutedLook}`}>for a namespace: choose one above</span>}
      </div>
    );
  return (
    <Card title={`Proposed NetworkPolicies · ${namespace}`} aside={button}>
      {proposal.isPending && <Loading what="the proposal" />}
      {proposal.isError && <ErrorMessage error={proposal.error} what="a policy" verb="propose" />}
      {proposal.isSuccess && (
        <Proposal key={proposal.data.yaml} namespace={namespace} answer={proposal.data} />
      )}
    </Card>
  );
}
