import { useQuery } from '@tanstack/react-query';
import { get } from '../../api/client.ts';
import { Card, Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { Moment } from './details/parts.tsx';
import { type EventObject, eventTimes } from './events.ts';

/**
 * An object's events, newest first, as `kubectl describe` lists them: type, reason, message, how often, and
 * when first and last seen (ages, the exact time on hover). Warnings stand out.
 */
export function EventsCard({ kind, namespace, name }: { kind: string; namespace?: string; name: string }) {
  const events = useQuery({
    queryKey: ['events', kind, namespace, name],
    queryFn: ({ signal }) => get('/api/events', { query: { kind, namespace, name }, signal }),
    refetchInterval: 15_000,
    select: (answer) =>
      (answer.items as EventObject[])
        .map((event) => ({ event, ...eventTimes(event) }))
        .sort((a, b) => Date.parse(b.last ?? '') - Date.parse(a.last ?? '') || 0),
  });
  return (
    <Card title="Events">
      <div className="overflow-x-auto">
        {events.isPending ? (
          <Loading what="its events" />
        ) : events.isError ? (
          <ErrorMessage error={events.error} what="its events" />
        ) : events.data.length === 0 ? (
          <Empty>No events for this object.</Empty>
        ) : (
          <Table
            label="Events"
            columns={[
              'Type',
              'Reason',
              'Message',
              { label: 'Count', right: true },
              'First seen',
              'Last seen',
            ]}
          >
            {events.data.map(({ event, first, last, count }, index) => {
              const warning = event.type === 'Warning';
              return (
                <tr
                  key={event.metadata?.uid ?? index}
                  className={`align-top ${warning ? 'bg-amber-50 dark:bg-amber-950/40' : ''}`}
                >
                  <td
                    className={`py-1.5 pr-4 pl-1 ${warning ? 'font-medium text-amber-900 dark:text-amber-200' : ''}`}
                  >
                    {event.type ?? '—'}
                  </td>
                  <td className="py-1.5 pr-4 font-medium">{event.reason ?? '—'}</td>
                  <td className="min-w-[16rem] py-1.5 pr-4 break-words">{event.message}</td>
                  <td className="py-1.5 pr-4 text-right tabular-nums">{count}</td>
                  <td className="py-1.5 pr-4">
                    <Moment at={first} />
                  </td>
                  <td className="py-1.5">
                    <Moment at={last} />
                  </td>
                </tr>
              );
            })}
          </Table>
        )}
      </div>
    </Card>
  );
}
