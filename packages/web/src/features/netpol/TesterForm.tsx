import { useState } from 'react';
import { primaryLook } from '../../ui/controls.tsx';
import { EndpointFields } from './EndpointFields.tsx';
import { PortFields } from './PortFields.tsx';
import { type Draft, draftOf, type NetpolSearch, searchOf } from './query.ts';
import { type FormField, fieldError } from './types.ts';

/** The question: from where, to where, which port and protocol. Submitting puts it in the URL. */
export function TesterForm(props: {
  search: NetpolSearch;
  namespace?: string;
  error: unknown;
  ask: (search: NetpolSearch) => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.search, props.namespace));
  const refused = fieldError(props.error);
  const on = (field: FormField) => (refused?.field === field ? refused.message : undefined);
  return (
    <form
      aria-label="Connection to test"
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        props.ask(searchOf(draft));
      }}
    >
      <div className="flex flex-col gap-3 lg:flex-row lg:items-stretch">
        <EndpointFields
          legend="Source"
          modes={[
            ['pod', 'Pod'],
            ['labels', 'Pod with labels'],
            ['ip', 'Address'],
          ]}
          value={draft.source}
          change={(patch) => setDraft((d) => ({ ...d, source: { ...d.source, ...patch } }))}
          error={on('source')}
          namespaceError={on('sourceNamespace')}
          labelsError={on('sourceLabels')}
        />
        <span aria-hidden="true" className="self-center text-2xl text-slate-400">
          →
        </span>
        <EndpointFields
          legend="Destination"
          modes={[
            ['pod', 'Pod'],
            ['service', 'Service'],
            ['ip', 'Address'],
          ]}
          value={draft.destination}
          change={(patch) => setDraft((d) => ({ ...d, destination: { ...d.destination, ...patch } }))}
          error={on('destination')}
        />
      </div>
      <div className="flex flex-wrap items-start gap-3">
        <PortFields
          port={draft.port}
          protocol={draft.protocol}
          onPort={(port) => setDraft((d) => ({ ...d, port }))}
          onProtocol={(protocol) => setDraft((d) => ({ ...d, protocol }))}
          portError={on('port')}
        />
        <button type="submit" className={`${primaryLook} mt-6`}>
          Evaluate
        </button>
      </div>
    </form>
  );
}
