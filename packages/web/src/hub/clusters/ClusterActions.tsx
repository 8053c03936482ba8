import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { Field, rowButtonLook } from '../../ui/forms.tsx';
import { ErrorMessage } from '../../ui/states.tsx';
import type { HubAnswer } from '../api.ts';
import { hub } from '../api.ts';
import { ShownOnce } from '../shell/ShownOnce.tsx';

type Cluster = HubAnswer<'/api/clusters'>['items'][number];
type Asking = 'rename' | 'rotate' | 'delete';

const buttons: [Asking, string][] = [
  ['rename', 'Rename'],
  ['rotate', 'Rotate token'],
  ['delete', 'Remove'],
];

/** An owner's buttons on a cluster's row: rename, rotate its agent token (shown once), remove it. */
export function ClusterActions({ cluster }: { cluster: Cluster }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Asking>();
  const [name, setName] = useState(cluster.name);
  const params = { id: cluster.id };
  const act = useMutation({
    mutationFn: async (what: Asking): Promise<string | undefined> => {
      if (what === 'rename') await hub.patch('/api/clusters/{id}', { params, body: { name } });
      if (what === 'delete') await hub.remove('/api/clusters/{id}', { params });
      if (what === 'rotate') return (await hub.post('/api/clusters/{id}/rotate-token', { params })).token;
      return undefined;
    },
    onSuccess: (token) => {
      if (!token) setAsking(undefined);
      void queryClient.invalidateQueries({ queryKey: ['clusters'] });
    },
  });
  const open = (what: Asking) => {
    act.reset();
    setName(cluster.name);
    setAsking(what);
  };
  const dialogs: Record<Asking, { title: string; confirm: string; body: ReactNode }> = {
    rename: {
      title: `Rename ${cluster.name}`,
      confirm: 'Rename',
      body: <Field label="New name" required maxLength={63} value={name} onText={setName} />,
    },
    rotate: {
      title: `Rotate the agent token of ${cluster.name}?`,
      confirm: act.data ? 'Done' : 'Rotate',
      body: act.data ? (
        <ShownOnce label={`New agent token of ${cluster.name}`} secret={act.data} />
      ) : (
        <p>
          A new token is minted and the old one is refused at once: the agent stays disconnected until its
          secret holds the new token (`kubectl -n binnacle create secret generic binnacle-agent-token …
          --dry-run=client -o yaml | kubectl apply -f -`, then restart it).
        </p>
      ),
    },
    delete: {
      title: `Remove ${cluster.name}?`,
      confirm: 'Remove',
      body: (
        <p>Its agent token stops working and its agent is disconnected; nothing in the cluster changes.</p>
      ),
    },
  };
  const dialog = asking && dialogs[asking];
  return (
    <div className="flex justify-end gap-1.5">
      {buttons.map(([what, label]) => (
        <button
          key={what}
          type="button"
          className={rowButtonLook}
          aria-label={`${label} ${what === 'rotate' ? 'of ' : ''}${cluster.name}`}
          onClick={() => open(what)}
        >
          {label}
        </button>
      ))}
      {asking && dialog && (
        <ConfirmDialog
          title={dialog.title}
          confirm={dialog.confirm}
          busy={act.isPending}
          onCancel={() => setAsking(undefined)}
          onConfirm={() => (act.data ? setAsking(undefined) : act.mutate(asking))}
        >
          {dialog.body}
          {act.isError && <ErrorMessage error={act.error} what={cluster.name} verb={asking} />}
        </ConfirmDialog>
      )}
    </div>
  );
}
