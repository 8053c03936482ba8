import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { applyTheme } from '../../features/shell/theme.ts';
import { controlLook, Field, SubmitButton } from '../../ui/forms.tsx';
import { Card, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { formatTime, usePreferences } from './preferences.ts';

type Preferences = HubAnswer<'/api/preferences'>;

/** Saves a change to your preferences and shows it everywhere at once (the theme on this page too). */
function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Partial<Preferences>) => hub.patch('/api/preferences', { body: change }),
    onSuccess: (saved) => {
      applyTheme(saved.theme);
      queryClient.setQueryData(['preferences'], saved);
    },
  });
}

/**
 * Your preferences, kept by the hub: the theme, whether times read in your time zone or in UTC, and where you
 * start after signing in (a default cluster, opened on a default namespace).
 */
export function PreferencesPage() {
  const preferences = usePreferences();
  const save = useSavePreferences();
  const example = new Date().toISOString();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Preferences</h1>
      <Card title="Display">
        <Loaded query={preferences} what="your preferences">
          {(data) => (
            <div className="flex flex-col gap-4 text-sm">
              <label className="flex flex-col gap-1">
                Theme
                <select
                  className={`${controlLook} w-60`}
                  value={data.theme}
                  onChange={(e) => save.mutate({ theme: e.target.value as Preferences['theme'] })}
                >
                  <option value="system">Follow the system</option>
                  <option value="light">Light</option>
                  <option value="dark">Dark</option>
                </select>
              </label>
              <label className="flex flex-col gap-1">
                Times
                <select
                  className={`${controlLook} w-60`}
                  value={data.timeZone}
                  onChange={(e) => save.mutate({ timeZone: e.target.value as Preferences['timeZone'] })}
                >
                  <option value="local">In my time zone</option>
                  <option value="utc">In UTC</option>
                </select>
              </label>
              <p className="text-slate-600 dark:text-slate-400">
                Now reads as <span className="font-mono">{formatTime(example, data.timeZone)}</span> in the
                audit log. Saved as you change them; the same in every browser you sign in from.
              </p>
              {save.isError && <ErrorMessage error={save.error} what="your preferences" verb="save" />}
            </div>
          )}
        </Loaded>
      </Card>
      <Card title="Where you start">
        <Loaded query={preferences} what="your preferences">
          {(data) => <StartingPoint saved={data} />}
        </Loaded>
      </Card>
    </div>
  );
}

/** The cluster a sign-in opens, and the namespace its pages show first. */
function StartingPoint({ saved }: { saved: Preferences }) {
  const clusters = useQuery({
    queryKey: ['clusters'],
    queryFn: ({ signal }) => hub.get('/api/clusters', { signal }),
  });
  const save = useSavePreferences();
  const [namespace, setNamespace] = useState(saved.defaultNamespace ?? '');
  const gone = saved.defaultClusterId && !clusters.data?.items.some((c) => c.id === saved.defaultClusterId);
  return (
    <div className="flex flex-col gap-4 text-sm">
      <label className="flex flex-col gap-1">
        Default cluster
        <select
          className={`${controlLook} w-80`}
          value={saved.defaultClusterId ?? ''}
          disabled={!clusters.data}
          onChange={(e) => save.mutate({ defaultClusterId: e.target.value || null })}
        >
          <option value="">None: start at the list of clusters</option>
          {gone && <option value={saved.defaultClusterId ?? ''}>A cluster no longer here</option>}
          {clusters.data?.items.map((cluster) => (
            <option key={cluster.id} value={cluster.id}>
              {cluster.name}
            </option>
          ))}
        </select>
      </label>
      <form
        aria-label="Default namespace"
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate({ defaultNamespace: namespace.trim() || null });
        }}
      >
        <Field
          label="Default namespace (empty: all namespaces)"
          value={namespace}
          onText={setNamespace}
          maxLength={63}
          pattern="[a-z0-9]([\-a-z0-9]*[a-z0-9])?"
          title="A namespace name: lower-case letters, digits and dashes"
          placeholder="all namespaces"
        />
        <SubmitButton busy={save.isPending} label="Save" busyLabel="Saving…" />
        {save.isSuccess && (
          <span role="status" className="pb-2 text-slate-600 dark:text-slate-400">
            Saved
          </span>
        )}
      </form>
      <p className="text-slate-600 dark:text-slate-400">
        A sign-in that was not sent from a page opens the default cluster; every cluster you open from the hub
        shows the default namespace first.
      </p>
      {clusters.isError && <ErrorMessage error={clusters.error} what="the clusters" />}
      {save.isError && <ErrorMessage error={save.error} what="your preferences" verb="save" />}
    </div>
  );
}
