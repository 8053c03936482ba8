import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { type Capabilities, useCapabilities } from '../shell/use-capabilities.ts';
import { ShellOpener } from './ShellOpener.tsx';

/** Why the agent offers no local terminal, in the words of its capabilities. */
function whyOff(capabilities: Capabilities): string {
  if (capabilities.authEnabled)
    return 'It is not served through the hub: it would be a shell on the host the agent runs on.';
  if (capabilities.deployment.mode !== 'local')
    return 'The agent runs in a cluster, where a shell on its host would be a shell in its own pod.';
  return 'The agent was started with --disable-local-terminal.';
}

/** A shell on the machine the agent runs on (local mode), for kubectl, helm and the rest of a laptop's tools. */
export function LocalTerminalPage() {
  const capabilities = useCapabilities();
  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-4">
      <h1 className="text-xl font-semibold">Local terminal</h1>
      {capabilities.isPending ? (
        <Loading what="what this agent offers" />
      ) : capabilities.isError ? (
        <ErrorMessage error={capabilities.error} what="what this agent offers" />
      ) : capabilities.data.localTerminal ? (
        <Card title="The agent's host">
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
            A login shell on the machine the agent runs on, as the user that started it, in that user's home
            directory. Closing the page or the shell ends the session; a shell opened in the dock stays open
            while you move between pages.
          </p>
          <ShellOpener path="/api/local-terminal" dockTitle="Local terminal" />
        </Card>
      ) : (
        <Card title="Not available here">
          <p className="text-sm">{whyOff(capabilities.data)}</p>
        </Card>
      )}
    </div>
  );
}
