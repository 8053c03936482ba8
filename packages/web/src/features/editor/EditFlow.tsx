import { lazy, type RefObject, Suspense } from 'react';
import { buttonLook, primaryLook } from '../../ui/controls.tsx';
import { ErrorMessage, Loading } from '../../ui/states.tsx';

// The parts of an edit in YAML that the object's YAML card and a Helm release's values share: edit, then see
// what the server would make of it (a dry run), then apply.

// CodeMirror is only fetched when someone edits.
const YamlEditor = lazy(() => import('./CodeMirror.tsx').then((m) => ({ default: m.YamlEditor })));

/** The editor, starting from `initial`; the text typed lives in `draft`, so typing does not re-create it. */
export function DraftEditor({
  initial,
  label,
  draft,
}: {
  initial: string;
  label: string;
  draft: RefObject<string>;
}) {
  return (
    <Suspense fallback={<Loading what="the editor" />}>
      <YamlEditor
        initial={initial}
        label={label}
        onChange={(text) => {
          draft.current = text;
        }}
      />
    </Suspense>
  );
}

/**
 * A step of the edit: why its request failed, if it did, then the way on (saying what it is doing while its
 * request runs) and the way back.
 */
export function StepButtons(props: {
  step: { isPending: boolean; isError: boolean; error: unknown };
  failure: { what: string; verb: string };
  next: { label: string; busy: string; run: () => void };
  back: { label: string; run: () => void };
}) {
  const { step } = props;
  return (
    <>
      {step.isError && <ErrorMessage error={step.error} {...props.failure} />}
      <div className="flex gap-2">
        <button type="button" className={primaryLook} disabled={step.isPending} onClick={props.next.run}>
          {step.isPending ? props.next.busy : props.next.label}
        </button>
        <button type="button" className={buttonLook} disabled={step.isPending} onClick={props.back.run}>
          {props.back.label}
        </button>
      </div>
    </>
  );
}
