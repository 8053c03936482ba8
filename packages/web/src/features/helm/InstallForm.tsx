import { useState } from 'react';
import { Checkbox, primaryLook } from '../../ui/controls.tsx';
import { controlLook, Field } from '../../ui/forms.tsx';
import { ValuesField } from './controls.tsx';
import type { useHelmStream } from './use-helm-stream.ts';

/** Helm's rule for a release name: a DNS-1123 label of at most 53 characters. */
const releaseName = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Installs a version of a chart from a configured source as a new release through the page's helm stream (whose
 * progress the page shows).
 */
export function InstallForm(props: {
  repo: string;
  chart: string;
  versions: string[];
  version: string;
  setVersion: (version: string) => void;
  defaults: string;
  namespace?: string;
  start: ReturnType<typeof useHelmStream>['start'];
  running: boolean;
}) {
  const [name, setName] = useState(props.chart);
  const [namespace, setNamespace] = useState(props.namespace ?? 'default');
  const [values, setValues] = useState('');
  const [createNamespace, setCreateNamespace] = useState(false);
  const { running } = props;
  const nameProblem =
    releaseName.test(name) && name.length <= 53 ? undefined : 'lowercase letters, digits and -, at most 53';
  return (
    <form
      aria-label={`Install ${props.chart}`}
      className="flex flex-col gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        props.start(
          `Install ${props.chart} ${props.version} as ${namespace}/${name}`,
          '/api/pkgmgr/releases/install-stream',
          {
            body: {
              releaseName: name,
              namespace,
              chartName: props.chart,
              version: props.version,
              repository: props.repo,
              ...(values.trim() ? { values } : {}),
              createNamespace,
            },
          },
        );
      }}
    >
      <fieldset disabled={running} className="flex flex-col gap-3">
        <Field
          label="Release name"
          value={name}
          onText={setName}
          required
          aria-invalid={Boolean(nameProblem)}
        />
        {nameProblem && (
          <p className="-mt-2 text-xs text-red-800 dark:text-red-300">Release name: {nameProblem}.</p>
        )}
        <Field label="Namespace" value={namespace} onText={setNamespace} required />
        <Checkbox
          label={'Create the namespace if it does not exist'}
          checked={createNamespace}
          onChange={setCreateNamespace}
        />
        <label className="flex flex-col gap-1 text-sm">
          Version
          <select
            className={controlLook}
            value={props.version}
            onChange={(e) => props.setVersion(e.target.value)}
          >
            {props.versions.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
        <ValuesField
          label="Values (YAML, optional: over the chart's defaults)"
          value={values}
          onText={setValues}
        />
        <div className="flex flex-wrap gap-2">
          <button type="submit" className={primaryLook} disabled={Boolean(nameProblem) || !namespace}>
            {running ? 'Installing…' : 'Install'}
          </button>
          <button
            type="button"
            className={`${controlLook} hover:bg-slate-100 dark:hover:bg-slate-700`}
            onClick={() => setValues(props.defaults)}
          >
            Start from the defaults
          </button>
        </div>
      </fieldset>
    </form>
  );
}
