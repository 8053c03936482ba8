import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { postStream, type StreamBody, type StreamFrame, type StreamPath } from '../../api/post-stream.ts';
import { toastError } from '../../ui/toasts.tsx';
import type { ReleaseSummary } from './types.ts';

/** A frame of any of helm's streamed actions (they document the same frames). */
type Frame = StreamFrame<StreamPath>;
export type ProgressLine = Omit<Extract<Frame, { type: 'progress' }>, 'type'>;

/** One install, upgrade or rollback as it runs: helm's progress lines, then how it ended. */
export interface HelmRun {
  /** What runs, in words: `Upgrade shop/ledger to 1.3.0`. */
  title: string;
  state: 'running' | 'succeeded' | 'failed' | 'cancelled';
  lines: ProgressLine[];
  release?: ReleaseSummary;
  error?: ApiError;
}

/**
 * Runs helm changes through the agent's streaming routes and keeps the latest run's progress. Leaving the page
 * (unmounting) or `cancel` closes the stream, which makes the agent stop helm. Every ending refreshes what the
 * Helm pages show; a failure is also a toast.
 */
export function useHelmStream() {
  const queryClient = useQueryClient();
  const [run, setRun] = useState<HelmRun>();
  const current = useRef<AbortController>(undefined);
  useEffect(() => () => current.current?.abort(), []);

  const start = useCallback(
    <P extends StreamPath>(
      title: string,
      path: P,
      options: { params?: Record<string, string>; body: StreamBody<P> },
    ) => {
      current.current?.abort();
      const abort = new AbortController();
      current.current = abort;
      const update = (change: (was: HelmRun) => HelmRun) => {
        if (current.current === abort) setRun((was) => (was ? change(was) : was));
      };
      const fail = (error: ApiError) => {
        update((was) => ({ ...was, state: 'failed', error }));
        toastError(`${title} failed`, error);
      };
      setRun({ title, state: 'running', lines: [] });
      postStream(path, { ...options, signal: abort.signal }, (received) => {
        // P is one of the routes whose frames make up Frame.
        const frame = received as Frame;
        if (frame.type === 'progress') {
          const { phase, message, detail } = frame;
          update((was) => ({ ...was, lines: [...was.lines, { phase, message, detail }] }));
        } else if (frame.type === 'complete') {
          update((was) => ({ ...was, state: 'succeeded', release: frame.release }));
        } else {
          fail(new ApiError(0, frame.code, frame.message));
        }
      })
        .then(
          () =>
            update((was) =>
              was.state === 'running'
                ? {
                    ...was,
                    state: 'failed',
                    error: new ApiError(0, 'stream_ended', 'the agent ended the stream without an outcome'),
                  }
                : was,
            ),
          (error: unknown) => {
            if (abort.signal.aborted) return;
            fail(
              error instanceof ApiError
                ? error
                : new ApiError(0, 'network_error', error instanceof Error ? error.message : String(error)),
            );
          },
        )
        .finally(() => void queryClient.invalidateQueries({ queryKey: ['helm'] }));
    },
    [queryClient],
  );

  const cancel = useCallback(() => {
    current.current?.abort();
    setRun((was) => (was?.state === 'running' ? { ...was, state: 'cancelled' } : was));
  }, []);
  const dismiss = useCallback(() => {
    current.current?.abort();
    current.current = undefined;
    setRun(undefined);
  }, []);
  return { run, start, cancel, dismiss };
}
