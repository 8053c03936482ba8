import { CodeBlock } from '../../ui/CodeBlock.tsx';
import { linkLook, mutedLook, panelLook } from '../../ui/controls.tsx';
import type { Sources } from './flows.ts';
import { sourceTitle } from './SourcesBar.tsx';

/**
 * No source gives flows: a normal state of a cluster, not an error. Says why, and what the agent recommends
 * installing for this cluster's network plugin.
 */
export function NoSource({ reason, sources }: { reason: string; sources?: Sources }) {
  const recommendation = sources?.recommendation;
  return (
    <section aria-label="No traffic source" className={`${panelLook} flex max-w-3xl flex-col gap-3 pb-4`}>
      <h2 className="text-base font-semibold">No traffic flows to show yet</h2>
      <p className="text-sm">{reason.charAt(0).toUpperCase() + reason.slice(1)}</p>
      {recommendation && (
        <>
          <p className="text-sm">
            <strong>Recommended: {sourceTitle[recommendation.name]}.</strong> {recommendation.reason}
          </p>
          <CodeBlock label="Install it" text={recommendation.installCommand} />
          <a href={recommendation.docsUrl} target="_blank" rel="noreferrer" className={`text-sm ${linkLook}`}>
            {sourceTitle[recommendation.name]} documentation
          </a>
        </>
      )}
      <p className={`text-xs ${mutedLook}`}>
        The agent looks for a source again every 5 seconds: the map appears here once one answers.
      </p>
    </section>
  );
}
