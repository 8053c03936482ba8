import { Link } from '@tanstack/react-router';
import { Badge } from '../../ui/Badge.tsx';
import { linkLook, mutedLook } from '../../ui/controls.tsx';
import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { Table } from '../../ui/Table.tsx';
import { type Finding, type FindingSource, statusTone, statusWord } from './types.ts';

const cell = 'py-2 pr-4 align-top last:pr-0';
/** A use is one kind at one version, at one place, through one release or GitOps source. */
const keyOf = (f: Finding) =>
  [f.apiVersion, f.kind, f.namespace, f.name, f.resource, f.release?.name, f.application?.name].join('/');
const code = 'font-mono text-xs';

/** Where the use is: the object (a link where it is live), the release or the Application that holds it. */
function Where({ finding }: { finding: Finding }) {
  const { release, application, namespace, name, resource } = finding;
  if (finding.source === 'object' && name)
    return <ObjectLink kind={finding.kind} namespace={namespace} name={name} />;
  const object = name ? `${namespace ? `${namespace}/` : ''}${name}` : resource;
  return (
    <div className="flex flex-col gap-0.5">
      {object && <span className={code}>{object}</span>}
      {release && (
        <Link
          to="/helm/$namespace/$name"
          params={{ namespace: release.namespace, name: release.name }}
          search={{ revision: release.revision }}
          className={`text-xs ${linkLook}`}
        >
          release {release.namespace}/{release.name} rev {release.revision}
          {release.chart ? ` (${release.chart})` : ''}
        </Link>
      )}
      {application &&
        (application.kind === 'Application' ? (
          <Link
            to="/gitops/applications/$namespace/$name"
            params={{ namespace: application.namespace, name: application.name }}
            className={`text-xs ${linkLook}`}
          >
            Application {application.namespace}/{application.name}
          </Link>
        ) : (
          <Link
            to="/gitops/flux/$kind/$namespace/$name"
            params={{ kind: application.kind, namespace: application.namespace, name: application.name }}
            className={`text-xs ${linkLook}`}
          >
            {application.kind} {application.namespace}/{application.name}
          </Link>
        ))}
    </div>
  );
}

/** One source's findings: what is used, what to use instead, where, and by when it must change. */
export function FindingRows({
  findings,
  source,
  target,
}: {
  findings: Finding[];
  source: FindingSource;
  target: string;
}) {
  const where = source === 'helm' ? 'Object · release' : source === 'gitops' ? 'Object · source' : 'Where';
  return (
    <Table columns={['Status', 'Kind', 'In use', 'Move to', where, 'Removed in']}>
      {findings.map((f) => (
        <tr key={keyOf(f)}>
          <td className={cell}>
            <Badge tone={statusTone[f.status]}>{statusWord(f.status, target)}</Badge>
          </td>
          <td className={`${cell} font-medium`}>{f.kind}</td>
          <td className={`${cell} ${code} text-red-800 dark:text-red-300`}>{f.apiVersion}</td>
          <td className={cell}>
            {f.replacement ? (
              <span className={`${code} text-emerald-800 dark:text-emerald-300`}>→ {f.replacement}</span>
            ) : (
              <span className={`text-xs ${mutedLook}`}>{f.note ?? 'no replacement'}</span>
            )}
            {f.replacement && f.note && <p className={`text-xs ${mutedLook}`}>{f.note}</p>}
          </td>
          <td className={cell}>
            <Where finding={f} />
          </td>
          <td className={`${cell} tabular-nums`}>{f.removedIn ?? <span className={mutedLook}>—</span>}</td>
        </tr>
      ))}
    </Table>
  );
}
