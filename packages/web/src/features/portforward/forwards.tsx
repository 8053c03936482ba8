import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from '../../api/client.ts';

/** The agent's port-forwards, polled; off while `unavailable` says why none can be listed here. */
export const usePortForwards = (refetchInterval: number, unavailable: string | undefined) =>
  useQuery({
    queryKey: ['portforwards'],
    queryFn: ({ signal }) => get('/api/portforwards', { signal }),
    refetchInterval,
    enabled: !unavailable,
  });

/** A start or stop of a forward; every list of forwards is fetched again after it. */
export function useForwardChange<T>(mutationFn: (variables: T) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['portforwards'] }),
  });
}

/** A running forward's local address, opened in a new tab. */
export const ForwardLink = ({ url }: { url: string }) => (
  <a href={url} target="_blank" rel="noreferrer" className="text-teal-800 underline dark:text-teal-300">
    {url}
  </a>
);
