import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applyTheme, type Theme } from '../../features/shell/theme.ts';
import { controlLook } from '../../ui/forms.tsx';
import { Card, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { hub } from '../api.ts';
import { formatTime, usePreferences } from './preferences.ts';

type Change = { theme?: Theme; timeZone?: 'local' | 'utc' };

/** Your preferences, kept by the hub: the theme, and whether times are shown in your time zone or in UTC. */
export function PreferencesPage() {
  const queryClient = useQueryClient();
  const preferences = usePreferences();
  const save = useMutation({
    mutationFn: (change: Change) => hub.patch('/api/preferences', { body: change }),
    onSuccess: (saved) => {
      applyTheme(saved.theme);
      queryClient.setQueryData(['preferences'], saved);
    },
  });
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
                  onChange={(e) => save.mutate({ theme: e.target.value as Theme })}
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
                  onChange={(e) => save.mutate({ timeZone: e.target.value as 'local' | 'utc' })}
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
    </div>
  );
}
