import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { Card, Empty, Loaded } from '../../ui/states.tsx';
import { PolicyNote, RecommendationTable } from './Recommendations.tsx';
import { windowWords } from './windows.ts';

/** The requests and limits a workload's containers should have, from their usage (the agent's default window). */
export function RightsizingCard({
  kind,
  namespace,
  name,
}: {
  kind: string;
  namespace: string;
  name: string;
}) {
  const query = useQuery({
    queryKey: ['metricsdb', 'rightsizing', kind, namespace, name],
    queryFn: ({ signal }) =>
      get('/api/metricsdb/rightsizing/{kind}/{namespace}/{name}', {
        params: { kind, namespace, name },
        signal,
      }),
  });
  return (
    <Card title="Rightsizing">
      <Loaded query={query} what="the recommendations">
        {(answer) =>
          !answer.available ? (
            // The Metrics card above explains what to do; saying it twice would only push the page down.
            <Empty>No recommendations: {answer.reason}.</Empty>
          ) : answer.containers.length === 0 ? (
            <Empty>No containers to size.</Empty>
          ) : (
            <div className="flex flex-col gap-3">
              <p className={`text-sm ${mutedLook}`}>
                {answer.replicas} {answer.replicas === 1 ? 'replica' : 'replicas'}; savings count every
                replica.
              </p>
              <RecommendationTable
                label={`Recommendations for ${kind} ${name}`}
                containers={answer.containers}
              />
              <PolicyNote policy={answer.policy} window={windowWords(answer.window)} />
            </div>
          )
        }
      </Loaded>
    </Card>
  );
}
