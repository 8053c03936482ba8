import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { get, remove } from '../../api/client.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Checkbox } from '../../ui/controls.tsx';
import { controlLook } from '../../ui/forms.tsx';
import { ErrorMessage, Loaded } from '../../ui/states.tsx';
import { toastError } from '../../ui/toasts.tsx';
import { ValuesField } from './controls.tsx';
import { RevisionSelect } from './RevisionSelect.tsx';
import type { ReleaseDetail, ReleaseRef, UpgradeInfo } from './types.ts';
import type { useHelmStream } from './use-helm-stream.ts';

export type Asking =
  | { action: 'upgrade' }
  | { action: 'rollback'; revision?: number }
  | { action: 'uninstall' };

type Start = ReturnType<typeof useHelmStream>['start'];

interface DialogProps {
  detail: ReleaseDetail;
  release: ReleaseRef;
  start: Start;
  close: () => void;
}

function UpgradeDialog({ detail, release, start, close, info }: DialogProps & { info?: UpgradeInfo }) {
  const [version, setVersion] = useState<string>();
  const [values, setValues] = useState('');
  const [merge, setMerge] = useState(true);
  const repo = info?.repositoryName;
  const versions = useQuery({
    queryKey: ['helm', 'chart', repo, detail.chart],
    enabled: Boolean(repo),
    queryFn: ({ signal }) =>
      get('/api/pkgmgr/charts/{repo}/{chart}', { params: { repo: repo ?? '', chart: detail.chart }, signal }),
  });
  const chosen = version ?? info?.latestVersion ?? versions.data?.versions[0]?.version;
  return (
    <ConfirmDialog
      title={`Upgrade ${release.namespace}/${release.name}?`}
      confirm="Upgrade"
      disabled={!repo || !chosen}
      onCancel={close}
      onConfirm={() => {
        close();
        start(
          `Upgrade ${release.namespace}/${release.name} to ${detail.chart} ${chosen}`,
          '/api/pkgmgr/releases/{namespace}/{name}/upgrade-stream',
          {
            params: { ...release },
            body: {
              version: chosen,
              repository: repo,
              ...(values.trim() ? { values, reuseValues: merge } : {}),
            },
          },
        );
      }}
    >
      <div className="flex flex-col gap-3">
        <p>
          Runs <code>helm upgrade</code> of chart {detail.chart} (now {detail.chartVersion}) from source{' '}
          {repo ?? '—'}, as you, and waits for its objects.
        </p>
        {info?.error && <p className="text-amber-800 dark:text-amber-300">{info.error}</p>}
        {repo && (
          <Loaded query={versions} what="the chart's versions">
            {(v) => (
              <label className="flex flex-col gap-1">
                Version
                <select className={controlLook} value={chosen} onChange={(e) => setVersion(e.target.value)}>
                  {v.versions.map((ver) => (
                    <option key={ver.version} value={ver.version}>
                      {ver.version}
                      {ver.appVersion ? ` (app ${ver.appVersion})` : ''}
                      {ver.version === detail.chartVersion ? ' · installed' : ''}
                      {ver.deprecated ? ' · deprecated' : ''}
                    </option>
                  ))}
                </select>
              </label>
            )}
          </Loaded>
        )}
        <ValuesField
          label="New values (YAML, optional: empty keeps the release's own)"
          value={values}
          onText={setValues}
          rows={4}
        />
        <Checkbox
          label={'Merge them over the current values (else they replace them)'}
          checked={merge}
          onChange={setMerge}
        />
      </div>
    </ConfirmDialog>
  );
}

function RollbackDialog({ detail, release, start, close, revision }: DialogProps & { revision?: number }) {
  const history = detail.history;
  const earlier = history.filter((r) => r.revision !== detail.revision);
  const [chosen, setChosen] = useState(revision ?? earlier[0]?.revision);
  return (
    <ConfirmDialog
      title={`Roll back ${release.namespace}/${release.name}?`}
      confirm="Roll back"
      disabled={chosen === undefined}
      onCancel={close}
      onConfirm={() => {
        close();
        start(
          `Roll back ${release.namespace}/${release.name} to revision ${chosen}`,
          '/api/pkgmgr/releases/{namespace}/{name}/rollback-stream',
          {
            params: { ...release },
            body: { revision: chosen },
          },
        );
      }}
    >
      {earlier.length === 0 ? (
        <p>The release has no earlier revision to go back to.</p>
      ) : (
        <div className="flex flex-col gap-3">
          <p>
            Runs <code>helm rollback</code>: a new revision with the chart and values of the one picked, as
            you.
          </p>
          <RevisionSelect
            label="Revision"
            history={history}
            value={chosen}
            onChange={setChosen}
            disabled={(r) => r.revision === detail.revision}
          />
        </div>
      )}
    </ConfirmDialog>
  );
}

function UninstallDialog({ release, close }: { release: ReleaseRef; close: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const uninstall = useMutation({
    mutationFn: () => remove('/api/pkgmgr/releases/{namespace}/{name}', { params: { ...release } }),
    onSuccess: async () => {
      await navigate({ to: '/helm', search: (prev) => ({ namespace: prev.namespace }) });
      await queryClient.invalidateQueries({ queryKey: ['helm'] });
    },
    onError: (error) => toastError(`Uninstalling ${release.namespace}/${release.name} failed`, error),
  });
  return (
    <ConfirmDialog
      title={`Uninstall ${release.namespace}/${release.name}?`}
      confirm="Uninstall"
      busy={uninstall.isPending}
      onCancel={close}
      onConfirm={() => uninstall.mutate()}
    >
      <p>
        Runs <code>helm uninstall</code> as you: the release's objects and its history are deleted.
      </p>
      {uninstall.isError && (
        <div className="mt-3">
          <ErrorMessage error={uninstall.error} what="it" verb="uninstall" />
        </div>
      )}
    </ConfirmDialog>
  );
}

/** The dialog of the action being asked for, if any. */
export function ReleaseDialogs(props: DialogProps & { asking?: Asking; info?: UpgradeInfo }) {
  const { asking, ...rest } = props;
  if (asking?.action === 'upgrade') return <UpgradeDialog {...rest} />;
  if (asking?.action === 'rollback') return <RollbackDialog {...rest} revision={asking.revision} />;
  if (asking?.action === 'uninstall') return <UninstallDialog release={rest.release} close={rest.close} />;
  return null;
}
