import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useRouterState } from '@tanstack/react-router';
import { get } from '../../api/client.ts';
import { AppFrame, navLinkLook } from '../../ui/AppFrame.tsx';
import { Dock } from '../dock/Dock.tsx';
import { DockContext, useDockState } from '../dock/use-dock.ts';
import { AccessBanner } from './AccessNotice.tsx';
import { ClusterSwitcher } from './ClusterSwitcher.tsx';
import { CommandPalette } from './CommandPalette.tsx';
import { ConnectionBadge } from './ConnectionBadge.tsx';
import { NamespacePicker } from './NamespacePicker.tsx';
import { SignedIn } from './SignedIn.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { useCapabilities } from './use-capabilities.ts';

/** The agent's pages: which cluster and whether it is reachable, the namespace in view, the areas. */
/** The sidebar's areas after Dashboard and Resources, each marked current on its own pages. */
const areaLinks = [
  { to: '/topology', label: 'Topology' },
  { to: '/traffic', label: 'Traffic' },
  { to: '/timeline', label: 'Timeline' },
  { to: '/helm', label: 'Helm' },
  { to: '/gitops', label: 'GitOps' },
  { to: '/audit', label: 'Audit' },
  { to: '/cost', label: 'Cost' },
  { to: '/certificates', label: 'Certificates' },
  { to: '/upgrade', label: 'Upgrade readiness' },
  { to: '/network-policies', label: 'Network policies' },
  { to: '/access', label: 'Access' },
  { to: '/compare', label: 'Compare' },
  { to: '/images', label: 'Images' },
  { to: '/sessions', label: 'Sessions' },
] as const;

export function Shell() {
  const path = useRouterState({ select: (state) => state.location.pathname });
  const keepNamespace = (prev: { namespace?: string }) => ({ namespace: prev.namespace });
  const capabilities = useCapabilities();
  const dock = useDockState();
  const info = useQuery({
    queryKey: ['cluster-info'],
    queryFn: ({ signal }) => get('/api/cluster-info', { signal }),
  });
  const areas = (
    <>
      <li>
        <Link to="/" search={keepNamespace} className={navLinkLook(path === '/')}>
          Dashboard
        </Link>
      </li>
      <li>
        <Link
          to="/resources/$kind"
          params={{ kind: 'pods' }}
          search={keepNamespace}
          className={navLinkLook(path.startsWith('/resources'))}
        >
          Resources
        </Link>
      </li>
      {areaLinks.map(({ to, label }) => (
        <li key={to}>
          <Link to={to} search={keepNamespace} className={navLinkLook(path.startsWith(to))}>
            {label}
          </Link>
        </li>
      ))}
      {capabilities.data?.localTerminal && (
        <li>
          <Link to="/terminal" search={keepNamespace} className={navLinkLook(path.startsWith('/terminal'))}>
            Terminal
          </Link>
        </li>
      )}
    </>
  );
  const header = (
    <>
      <div className="min-w-0">
        <p className="text-xs uppercase tracking-wide text-slate-600 dark:text-slate-400">Cluster</p>
        <p className="truncate font-medium" title={info.data?.server}>
          {info.data ? info.data.cluster : info.isError ? 'unknown' : 'connecting…'}
        </p>
      </div>
      <ConnectionBadge />
      <ClusterSwitcher />
      <div className="ml-auto flex items-center gap-3">
        <kbd className="hidden rounded border border-slate-300 px-1.5 py-0.5 text-xs text-slate-600 md:inline dark:border-slate-700 dark:text-slate-400">
          Ctrl K to jump
        </kbd>
        <NamespacePicker />
        <ThemeToggle />
        <SignedIn />
      </div>
    </>
  );
  return (
    <DockContext value={dock}>
      <AppFrame areas={areas} header={header} overlays={<CommandPalette />} dock={<Dock />}>
        <AccessBanner />
        <Outlet />
      </AppFrame>
    </DockContext>
  );
}
