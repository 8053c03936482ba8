import { Link } from '@tanstack/react-router';
import { hubClusterId } from '../../api/client.ts';
import { linkLook } from '../../ui/controls.tsx';

/**
 * From an object's page: compare it with another object of its kind here, and — when the page is served through
 * the hub — with one in another cluster (the hub's own Compare page, at the hub's root).
 */
export function CompareLinks({
  kind,
  namespace,
  name,
  at,
}: {
  kind: string;
  namespace: string;
  name: string;
  at?: string;
}) {
  const left = `${namespace}/${name}`;
  const across =
    hubClusterId &&
    `/compare?${new URLSearchParams({ kind, leftCluster: hubClusterId, left, ...(at ? { leftAt: at } : {}) })}`;
  return (
    <>
      <Link
        to="/compare"
        search={{ kind, left, ...(at ? { leftAt: at } : {}) }}
        className={`text-sm ${linkLook}`}
      >
        Compare with… →
      </Link>
      {across && (
        <a href={across} className={`text-sm ${linkLook}`}>
          Compare across clusters →
        </a>
      )}
    </>
  );
}
