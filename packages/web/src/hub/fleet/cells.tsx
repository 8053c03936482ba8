import type { ReactNode } from 'react';
import { linkLook } from '../../ui/controls.tsx';
import { clusterHome } from '../shell/cluster-home.ts';

/**
 * The cluster a row came from, opening its pages. Plain links, as the clusters list has them: a cluster's pages
 * are its agent's UI through the tunnel, a full page load.
 */
export function ClusterCell({ row }: { row: { clusterId: string; clusterName: string } }) {
  return (
    <td className="py-2 pr-4 align-top">
      <a href={clusterHome(row.clusterId)} className={`font-medium ${linkLook}`}>
        {row.clusterName}
      </a>
    </td>
  );
}

/** An object: its kind above, `namespace/name` linking to its page in its cluster (when it has one). */
export function ObjectCell({
  object,
  href,
}: {
  object: { kind: string; namespace?: string; name: string };
  href?: string;
}) {
  const name = `${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
  return (
    <td className="py-2 pr-4 align-top">
      <span className="text-xs text-slate-600 dark:text-slate-400">{object.kind}</span>
      <p className="font-mono text-xs break-words">
        {href ? (
          <a href={href} className={linkLook}>
            {name}
          </a>
        ) : (
          name
        )}
      </p>
    </td>
  );
}

/** A top-aligned cell with a main line and an optional muted line under it. */
export function TwoLines({ main, under }: { main: ReactNode; under?: ReactNode }) {
  return (
    <td className="py-2 pr-4 align-top">
      {main}
      {under && <p className="text-xs text-slate-600 dark:text-slate-400">{under}</p>}
    </td>
  );
}
