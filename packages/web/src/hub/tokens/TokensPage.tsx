import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { controlLook, Field, rowButtonLook, SubmitButton } from '../../ui/forms.tsx';
import { Card, Empty, ErrorMessage, Loaded } from '../../ui/states.tsx';
import { Table } from '../../ui/Table.tsx';
import { type HubAnswer, hub } from '../api.ts';
import { ShownOnce } from '../shell/ShownOnce.tsx';
import { since } from '../shell/time.ts';

type Token = HubAnswer<'/api/pats'>['items'][number];

/** Lifetimes offered when minting; the hub takes hours form (at most 8760h) or none. */
const lifetimes = [
  { label: '7 days', value: '168h' },
  { label: '30 days', value: '720h' },
  { label: '90 days', value: '2160h' },
  { label: '1 year', value: '8760h' },
  { label: 'Never expires', value: '' },
];

/** Your personal access tokens for scripts and MCP clients: list, mint (shown once), revoke. */
export function TokensPage() {
  const queryClient = useQueryClient();
  const tokens = useQuery({ queryKey: ['pats'], queryFn: ({ signal }) => hub.get('/api/pats', { signal }) });
  const [name, setName] = useState('');
  const [expiresIn, setExpiresIn] = useState('720h');
  const [revoking, setRevoking] = useState<Token>();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['pats'] });
  const mint = useMutation({
    mutationFn: () => hub.post('/api/pats', { body: { name, ...(expiresIn ? { expiresIn } : {}) } }),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (token: Token) => hub.remove('/api/pats/{id}', { params: { id: token.id } }),
    onSuccess: () => {
      setRevoking(undefined);
      refresh();
    },
  });
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Access tokens</h1>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        For scripts and MCP clients: send{' '}
        <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code> to the hub's API and to
        clusters at <code className="font-mono text-xs">/c/&lt;cluster&gt;/…</code>. A token acts as you, in
        this organization, with your role.
      </p>
      <Card title="Mint a token">
        <form
          className="flex flex-wrap items-end gap-3"
          onSubmit={(event) => {
            event.preventDefault();
            mint.mutate();
          }}
        >
          <Field
            label="Name"
            required
            maxLength={100}
            placeholder="ci-deploys"
            value={name}
            onText={setName}
          />
          <label className="flex flex-col gap-1 text-sm">
            Expires
            <select className={controlLook} value={expiresIn} onChange={(e) => setExpiresIn(e.target.value)}>
              {lifetimes.map((l) => (
                <option key={l.label} value={l.value}>
                  {l.label}
                </option>
              ))}
            </select>
          </label>
          <SubmitButton busy={mint.isPending} label="Mint" busyLabel="Minting…" />
        </form>
        {mint.isError && (
          <div className="mt-3">
            <ErrorMessage error={mint.error} what="the token" verb="mint" />
          </div>
        )}
        {mint.data && (
          <div className="mt-4">
            <ShownOnce label={`Token ${mint.data.name}`} secret={mint.data.token} />
          </div>
        )}
      </Card>
      <Card title="Your tokens">
        <Loaded query={tokens} what="your tokens">
          {(data) =>
            data.items.length === 0 ? (
              <Empty>No tokens yet.</Empty>
            ) : (
              <Table
                columns={['Name', 'Token', 'Created', 'Expires', 'Last used', { label: '', right: true }]}
              >
                {data.items.map((token) => (
                  <tr key={token.id}>
                    <td className="py-2 font-medium">{token.name}</td>
                    <td className="font-mono text-xs">…{token.hint}</td>
                    <td>{since(token.createdAt)} ago</td>
                    <td>{token.expiresAt ? token.expiresAt.slice(0, 10) : 'never'}</td>
                    <td>{token.lastUsedAt ? `${since(token.lastUsedAt)} ago` : 'never'}</td>
                    <td className="text-right">
                      <button
                        type="button"
                        className={rowButtonLook}
                        aria-label={`Revoke ${token.name}`}
                        onClick={() => setRevoking(token)}
                      >
                        Revoke
                      </button>
                    </td>
                  </tr>
                ))}
              </Table>
            )
          }
        </Loaded>
      </Card>
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          confirm="Revoke"
          busy={revoke.isPending}
          onCancel={() => setRevoking(undefined)}
          onConfirm={() => revoke.mutate(revoking)}
        >
          <p>Scripts using it are refused from now on. This cannot be undone.</p>
          {revoke.isError && <ErrorMessage error={revoke.error} what="it" verb="revoke" />}
        </ConfirmDialog>
      )}
    </div>
  );
}
