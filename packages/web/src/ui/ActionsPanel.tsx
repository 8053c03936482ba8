import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { buttonLook } from './controls.tsx';
import { Card, ErrorMessage } from './states.tsx';

/** One operation on an object: what its confirmation says, how it runs, and the choices its dialog offers. */
export interface Action<C> {
  label: string;
  /** What the confirmation says will happen. */
  explain: string;
  run: (choices: C) => Promise<{ message: string }>;
  /** The choices the dialog shows, if any. */
  form?: (choices: C, set: (change: Partial<C>) => void) => ReactNode;
  /** Why the action cannot be taken now; the button is disabled, its title and a line below say why. */
  unavailable?: string;
  /**
   * What is wrong with the choices (a field the form marks itself): while there is something, the dialog's
   * confirm button is disabled and `run` is never called.
   */
  problem?: (choices: C) => string | undefined;
}

/**
 * Buttons for an object's operations: each asks first, then says what happened and links to the timeline, where
 * the agent records it with the caller as its author. `report` renders what an answer (or a refusal) carries
 * beyond its message.
 */
export function ActionsPanel<C, O extends { message: string }>(props: {
  subject: { kind: string; namespace?: string; name: string };
  actions: Action<C>[];
  initial: C;
  /** The queries to refetch once an action has run. */
  invalidate: QueryKey[];
  report?: (outcome: O | undefined, error: unknown) => ReactNode;
}) {
  const { subject } = props;
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Action<C>>();
  const [choices, setChoices] = useState<C>(props.initial);
  const action = useMutation({
    mutationFn: (chosen: Action<C>) => chosen.run(choices) as Promise<O>,
    onSettled: () => {
      setAsking(undefined);
      for (const queryKey of [...props.invalidate, ['changes']])
        void queryClient.invalidateQueries({ queryKey });
    },
  });
  return (
    <Card title="Actions">
      <div className="flex flex-wrap gap-2">
        {props.actions.map((a) => (
          <button
            key={a.label}
            type="button"
            className={buttonLook}
            disabled={a.unavailable !== undefined}
            title={a.unavailable}
            onClick={() => {
              action.reset();
              setChoices(props.initial);
              setAsking(a);
            }}
          >
            {a.label}
          </button>
        ))}
      </div>
      {[...new Set(props.actions.map((a) => a.unavailable).filter(Boolean))].map((reason) => (
        <p key={reason} className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          {reason}
        </p>
      ))}
      {action.isSuccess && (
        <p role="status" className="mt-3 text-sm text-emerald-800 dark:text-emerald-300">
          {action.data.message}{' '}
          <Link
            to="/timeline"
            search={{ namespace: subject.namespace, kind: subject.kind, name: subject.name, type: 'actions' }}
            className="text-teal-800 underline dark:text-teal-300"
          >
            See it on the timeline
          </Link>
        </p>
      )}
      {action.isError && (
        <div className="mt-3">
          <ErrorMessage error={action.error} what="that done" verb="get" />
        </div>
      )}
      {props.report?.(action.data, action.error)}
      {asking && (
        <ConfirmDialog
          title={`${asking.label} ${subject.kind} ${subject.name}?`}
          confirm={asking.label}
          busy={action.isPending}
          disabled={asking.problem?.(choices) !== undefined}
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            if (asking.problem?.(choices) === undefined) action.mutate(asking);
          }}
        >
          <p>{asking.explain}</p>
          {asking.form?.(choices, (change) => setChoices((was) => ({ ...was, ...change })))}
        </ConfirmDialog>
      )}
    </Card>
  );
}
