import type { ReactNode } from 'react';
import { Empty } from '../../ui/states.tsx';
import { hiddenFromView, type Listed, pods, type Refusal } from './access.ts';
import { useCapabilities } from './use-capabilities.ts';

const look =
  'rounded-md border border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100';

/** What the caller may not list, and as whom: in place of a list that would otherwise read as empty. */
export function AccessNotice({ refusal, short }: { refusal: Refusal; short?: boolean }) {
  if (short)
    return (
      <p role="status" className={`${look} px-3 py-2 text-sm`}>
        {refusal.short}
      </p>
    );
  return (
    <div role="status" className={`${look} px-4 py-3 text-sm`}>
      <p className="font-medium">{refusal.title}</p>
      <p className="mt-1">{refusal.detail}</p>
    </div>
  );
}

/**
 * An empty list's words, unless the caller's view leaves the kind out: then that it may not list it, as whom.
 * Asked for the namespace in view, as the page's own list was.
 */
export function EmptyOrRefused({
  listed,
  namespace,
  children,
}: {
  listed: Listed;
  namespace?: string;
  children: ReactNode;
}) {
  const refusal = useRefusal(listed, namespace);
  return refusal ? <AccessNotice refusal={refusal} short /> : <Empty>{children}</Empty>;
}

/** Why the caller's view shows nothing of a kind in a namespace (or the cluster), once the agent has said. */
export function useRefusal(listed: Listed, namespace?: string): Refusal | undefined {
  const capabilities = useCapabilities({ namespace });
  return capabilities.data && hiddenFromView(capabilities.data, listed);
}

/**
 * Above every cluster page: the caller may list pods in no namespace, so every view of workloads is empty for
 * that reason and not because the cluster is — said once, with the identity the agent used and the remedy.
 */
export function AccessBanner() {
  const refusal = useRefusal(pods);
  if (!refusal) return null;
  return (
    <div className="mx-auto mb-4 max-w-7xl">
      <AccessNotice refusal={refusal} />
    </div>
  );
}
