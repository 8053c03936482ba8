import { type ReactNode, useState } from 'react';
import { Tabs } from '../../ui/Tabs.tsx';
import { TrafficImpact } from './TrafficImpact.tsx';

type ReviewTab = 'diff' | 'traffic';

/**
 * The review of an edited NetworkPolicy: the dry run's diff, and what the edit would do to the traffic observed
 * (the flows it newly denies or allows, the namespace's reachability before and after).
 */
export function PolicyReviewTabs({ diff, yaml }: { diff: ReactNode; yaml: string }) {
  const [tab, setTab] = useState<ReviewTab>('diff');
  return (
    <Tabs
      label="Review"
      tabs={[
        { id: 'diff', label: 'Changes' },
        { id: 'traffic', label: 'Traffic impact' },
      ]}
      current={tab}
      choose={setTab}
    >
      {tab === 'diff' ? diff : <TrafficImpact change={{ yaml }} />}
    </Tabs>
  );
}
