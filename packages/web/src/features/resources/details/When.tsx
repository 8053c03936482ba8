import { ago } from '../../../ui/states.tsx';

/** A time the cluster reported, shown relative (`3m ago`) with the exact time on hover. */
export function When({ at }: { at: string | undefined }) {
  if (!at) return null;
  return (
    <time dateTime={at} title={at}>
      {ago(at)}
    </time>
  );
}
