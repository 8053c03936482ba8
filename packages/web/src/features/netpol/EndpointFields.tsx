import { useId } from 'react';
import { Field } from '../../ui/forms.tsx';
import { type Mode, ModeSwitch } from '../../ui/ModeSwitch.tsx';
import type { EndpointDraft } from './query.ts';
import { useNamespaceNames, useObjectNames } from './use-names.ts';

/** A namespace field suggesting the namespaces the caller may list. */
export function NamespaceField(props: {
  label: string;
  value: string;
  onText: (v: string) => void;
  error?: string;
}) {
  const list = useId();
  const names = useNamespaceNames();
  return (
    <>
      <Field {...props} list={list} required autoComplete="off" spellCheck={false} placeholder="namespace" />
      <datalist id={list}>
        {names.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
    </>
  );
}

/** A pod or Service name field suggesting those of the namespace, with their labels. */
function NameField(props: {
  kind: 'pods' | 'services';
  namespace: string;
  label: string;
  value: string;
  onText: (v: string) => void;
  error?: string;
}) {
  const list = useId();
  const { kind, namespace, ...field } = props;
  const names = useObjectNames(kind, namespace.trim());
  return (
    <>
      <Field {...field} list={list} required autoComplete="off" spellCheck={false} placeholder="name" />
      <datalist id={list}>
        {names.map((o) => (
          <option key={o.name} value={o.name} label={o.labels} />
        ))}
      </datalist>
    </>
  );
}

/**
 * One end of the connection: a pod (or Service) by namespace and name, a pod that would carry some labels, or an
 * address outside the cluster. `error` is the agent's message about this end.
 */
export function EndpointFields<M extends 'pod' | 'service' | 'labels' | 'ip'>(props: {
  legend: string;
  modes: readonly Mode<M>[];
  value: EndpointDraft<M>;
  change: (patch: Partial<EndpointDraft<M>>) => void;
  error?: string;
  namespaceError?: string;
  labelsError?: string;
}) {
  const { value, change, legend } = props;
  const name = useId();
  return (
    <fieldset className="flex min-w-0 flex-1 flex-col gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700">
      <legend className="px-1 text-sm font-semibold">{legend}</legend>
      <ModeSwitch
        name={name}
        label={`${legend} is`}
        modes={props.modes}
        value={value.mode}
        onChange={(mode) => change({ mode })}
      />
      {value.mode === 'ip' ? (
        <Field
          label={`${legend} address`}
          value={value.ip}
          onText={(ip) => change({ ip })}
          error={props.error}
          required
          spellCheck={false}
          placeholder={legend === 'Source' ? '203.0.113.7 or 203.0.113.0/24' : '203.0.113.7'}
        />
      ) : (
        <div className="grid gap-3 sm:grid-cols-2">
          <NamespaceField
            label={`${legend} namespace`}
            value={value.namespace}
            onText={(namespace) => change({ namespace })}
            error={props.namespaceError}
          />
          {value.mode === 'labels' ? (
            <Field
              label={`${legend} pod labels`}
              value={value.labels}
              onText={(labels) => change({ labels })}
              error={props.labelsError}
              spellCheck={false}
              placeholder="app.kubernetes.io/name=web"
            />
          ) : (
            <NameField
              kind={value.mode === 'service' ? 'services' : 'pods'}
              namespace={value.namespace}
              label={`${legend} ${value.mode === 'service' ? 'Service' : 'pod'}`}
              value={value.name}
              onText={(n) => change({ name: n })}
              error={props.error}
            />
          )}
        </div>
      )}
    </fieldset>
  );
}
