import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../api/client.ts';
import { linkLook, mutedLook, primaryLook } from '../../ui/controls.tsx';
import { controlLook } from '../../ui/forms.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { type AccessSearch, verbs } from './search.ts';

/**
 * Kubernetes' own subjects (its controllers, scheduler, nodes: `system:` names and kube-system's ServiceAccounts):
 * folded away at first, since people ask about their own users, groups and workloads.
 */
const isSystem = (subject: { kind: string; name: string; namespace?: string }) =>
  subject.name.startsWith('system:') ||
  (subject.kind === 'ServiceAccount' && subject.namespace === 'kube-system');

/** "Who may delete pods here?": the subjects the bindings grant it, each confirmed by the API server. */
export function WhoCan({
  search,
  namespace,
  ask,
}: {
  search: AccessSearch;
  namespace?: string;
  ask: (next: Pick<AccessSearch, 'verb' | 'kind' | 'subresource'>) => void;
}) {
  const [verb, setVerb] = useState(search.verb ?? 'delete');
  const [kind, setKind] = useState(search.kind ?? 'pods');
  const [subresource, setSubresource] = useState(search.subresource ?? '');
  const asked = search.verb && search.kind;
  const answer = useQuery({
    queryKey: ['access', 'who', search.verb, search.kind, search.subresource, namespace],
    queryFn: ({ signal }) =>
      get('/api/access/who', {
        query: {
          verb: search.verb ?? '',
          kind: search.kind ?? '',
          ...(search.subresource ? { subresource: search.subresource } : {}),
          ...(namespace ? { namespace } : {}),
        },
        signal,
      }),
    enabled: Boolean(asked),
  });
  const [showSystem, setShowSystem] = useState(false);
  const where = namespace ? `in ${namespace}` : 'cluster-wide';
  const all = answer.data?.subjects ?? [];
  const system = all.filter(({ subject }) => isSystem(subject));
  const shown = showSystem ? all : all.filter(({ subject }) => !isSystem(subject));
  return (
    <Card title="Who may do this?">
      <form
        className="flex flex-wrap items-end gap-3 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          ask({ verb, kind, subresource: subresource || undefined });
        }}
      >
        <label className="flex flex-col gap-1">
          Verb
          <select className={controlLook} value={verb} onChange={(e) => setVerb(e.target.value)}>
            {verbs.map((v) => (
              <option key={v} value={v}>
                {v === '*' ? '* (every verb)' : v}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Kind (* for all)
          <input className={controlLook} value={kind} onChange={(e) => setKind(e.target.value)} required />
        </label>
        <label className="flex flex-col gap-1">
          Subresource
          <input
            className={`${controlLook} w-28`}
            value={subresource}
            placeholder="log, exec…"
            onChange={(e) => setSubresource(e.target.value)}
          />
        </label>
        <button type="submit" className={primaryLook}>
          Who may
        </button>
        <span className={mutedLook}>{where}</span>
      </form>
      <div className="mt-4">
        {!asked ? (
          <p className={`text-sm ${mutedLook}`}>
            Name a verb and a kind: the answer lists the subjects whose bindings grant it {where}.
          </p>
        ) : answer.isPending ? (
          <Loading what="who may" />
        ) : answer.isError ? (
          <ErrorMessage error={answer.error} what="who may do it" verb="ask" />
        ) : all.length === 0 ? (
          <Empty>No binding grants it {where}.</Empty>
        ) : (
          <table className="w-full text-left text-sm">
            <caption className={`pb-2 text-left text-xs ${mutedLook}`}>
              {all.length} subjects may {answer.data.question.verb} {answer.data.question.resource} {where}
              {system.length > 0 && (
                <>
                  {' · '}
                  <button type="button" className={linkLook} onClick={() => setShowSystem(!showSystem)}>
                    {showSystem
                      ? `Hide the ${system.length} of Kubernetes itself`
                      : `Show the ${system.length} of Kubernetes itself`}
                  </button>
                </>
              )}
            </caption>
            <thead className={mutedLook}>
              <tr>
                <th scope="col" className="py-1 pr-4 font-medium">
                  Subject
                </th>
                <th scope="col" className="py-1 pr-4 font-medium">
                  Granted by
                </th>
                <th scope="col" className="py-1 font-medium">
                  API server
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map(({ subject, grants, allowed }) => (
                <tr
                  key={`${subject.kind}/${subject.namespace ?? ''}/${subject.name}`}
                  className="border-t border-slate-100 align-top dark:border-slate-800"
                >
                  <td className="py-1.5 pr-4">
                    <span className={`text-xs ${mutedLook}`}>{subject.kind}</span>{' '}
                    <span className="font-mono text-xs">
                      {subject.namespace ? `${subject.namespace}/` : ''}
                      {subject.name}
                    </span>
                  </td>
                  <td className="py-1.5 pr-4 font-mono text-xs">
                    {grants.map((g) => (
                      <div key={g.binding}>
                        {g.binding} → {g.role}
                      </div>
                    ))}
                  </td>
                  <td className="py-1.5">
                    {allowed ? (
                      <span className="text-emerald-800 dark:text-emerald-300">allowed</span>
                    ) : (
                      <span
                        className="text-amber-800 dark:text-amber-300"
                        title="the binding names it, the API server refuses"
                      >
                        refused
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Card>
  );
}
