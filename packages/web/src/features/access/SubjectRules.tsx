import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../api/client.ts';
import { mutedLook, primaryLook } from '../../ui/controls.tsx';
import { controlLook } from '../../ui/forms.tsx';
import { Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { type AccessSearch, resourceName, type SubjectKind, subjectKinds } from './search.ts';

type Rules = Awaited<ReturnType<typeof get<'/api/access/subject'>>>;

/** One row per resource (and names), its verbs together, as `kubectl auth can-i --list` prints them. */
function rows(rules: Rules): { what: string; names: string; verbs: string }[] {
  const merged = new Map<string, Set<string>>();
  const add = (what: string, names: string[], verbs: string[]) => {
    const key = JSON.stringify([what, names.join(' ')]);
    const set = merged.get(key) ?? new Set<string>();
    for (const verb of verbs) set.add(verb);
    merged.set(key, set);
  };
  for (const rule of rules.resourceRules)
    for (const group of rule.apiGroups)
      for (const resource of rule.resources)
        add(resourceName(resource, group), rule.resourceNames ?? [], rule.verbs);
  for (const rule of rules.nonResourceRules) for (const url of rule.nonResourceURLs) add(url, [], rule.verbs);
  return (
    [...merged]
      .map(([key, verbs]) => {
        const [what, names] = JSON.parse(key) as [string, string];
        return { what, names, verbs: [...verbs].sort().join(' ') };
      })
      // Resources first, the non-resource URLs (discovery, health) after them.
      .sort(
        (a, b) =>
          Number(a.what.startsWith('/')) - Number(b.what.startsWith('/')) ||
          a.what.localeCompare(b.what) ||
          a.names.localeCompare(b.names),
      )
  );
}

/** "What may this subject do here?": the API server's own evaluation, and the bindings naming the subject. */
export function SubjectRules({
  search,
  namespace,
  ask,
}: {
  search: AccessSearch;
  namespace: string;
  ask: (next: Pick<AccessSearch, 'subjectKind' | 'subject' | 'serviceAccountNamespace'>) => void;
}) {
  const [kind, setKind] = useState<SubjectKind>(search.subjectKind ?? 'User');
  const [name, setName] = useState(search.subject ?? '');
  const [home, setHome] = useState(search.serviceAccountNamespace ?? '');
  const { subjectKind, subject } = search;
  const serviceAccountNamespace =
    subjectKind === 'ServiceAccount' ? search.serviceAccountNamespace : undefined;
  const answer = useQuery({
    queryKey: ['access', 'subject', subjectKind, subject, serviceAccountNamespace, namespace],
    queryFn: ({ signal }) =>
      get('/api/access/subject', {
        query: {
          kind: subjectKind ?? 'User',
          name: subject ?? '',
          namespace,
          ...(serviceAccountNamespace ? { serviceAccountNamespace } : {}),
        },
        signal,
      }),
    enabled: Boolean(subjectKind && subject),
  });
  return (
    <Card title="What may this subject do?">
      <form
        className="flex flex-wrap items-end gap-3 text-sm"
        onSubmit={(event) => {
          event.preventDefault();
          const elsewhere = kind === 'ServiceAccount' && home.trim() ? home.trim() : undefined;
          ask({ subjectKind: kind, subject: name, serviceAccountNamespace: elsewhere });
        }}
      >
        <label className="flex flex-col gap-1">
          Subject kind
          <select
            className={controlLook}
            value={kind}
            onChange={(e) => setKind(e.target.value as SubjectKind)}
          >
            {subjectKinds.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Name
          <input className={controlLook} value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        {kind === 'ServiceAccount' && (
          <label className="flex flex-col gap-1">
            Its namespace
            <input
              className={`${controlLook} w-44`}
              value={home}
              placeholder={namespace}
              onChange={(e) => setHome(e.target.value)}
            />
          </label>
        )}
        <button type="submit" className={primaryLook}>
          What may it do
        </button>
        <span className={mutedLook}>in {namespace}</span>
      </form>
      <div className="mt-4">
        {!(subjectKind && subject) ? (
          <p className={`text-sm ${mutedLook}`}>
            Name a User, Group or ServiceAccount: the answer is what the API server allows it in {namespace},
            as <code>kubectl auth can-i --list --as</code> lists it.
          </p>
        ) : answer.isPending ? (
          <Loading what="what it may do" />
        ) : answer.isError ? (
          <ErrorMessage error={answer.error} what="what it may do" verb="ask" />
        ) : (
          <SubjectAnswer rules={answer.data} />
        )}
      </div>
    </Card>
  );
}

function SubjectAnswer({ rules }: { rules: Rules }) {
  const listed = rows(rules);
  return (
    <div className="flex flex-col gap-3 text-sm">
      {rules.incomplete && (
        <p role="status" className="text-amber-800 dark:text-amber-300">
          The API server could not evaluate every rule
          {rules.evaluationError ? `: ${rules.evaluationError}` : ''}; the list may be short.
        </p>
      )}
      {listed.length === 0 ? (
        <Empty>Nothing is allowed.</Empty>
      ) : (
        <table className="w-full text-left">
          <caption className={`pb-2 text-left text-xs ${mutedLook}`}>
            {listed.length} rules in {rules.namespace}
          </caption>
          <thead className={mutedLook}>
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                Resource or URL
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Names
              </th>
              <th scope="col" className="py-1 font-medium">
                Verbs
              </th>
            </tr>
          </thead>
          <tbody className="font-mono text-xs">
            {listed.map((row) => (
              <tr
                key={`${row.what} ${row.names}`}
                className="border-t border-slate-100 dark:border-slate-800"
              >
                <td className="py-1 pr-4">{row.what}</td>
                <td className="py-1 pr-4">{row.names}</td>
                <td className="py-1">{row.verbs}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div>
        <h3 className="font-medium">Bindings naming it</h3>
        {rules.grants.length === 0 ? (
          <p className={mutedLook}>
            None: what it may do comes from the groups every authenticated user is in.
          </p>
        ) : (
          <ul className="mt-1 font-mono text-xs">
            {rules.grants.map((g) => (
              <li key={g.binding}>
                {g.binding} → {g.role} ({g.scope}
                {g.via.startsWith('Group') ? `, through ${g.via}` : ''})
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
