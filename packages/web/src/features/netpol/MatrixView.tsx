import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { get } from '../../api/client.ts';
import { mutedLook, panelLook, primaryLook } from '../../ui/controls.tsx';
import { Empty, ErrorMessage, Loading } from '../../ui/states.tsx';
import { NamespaceField } from './EndpointFields.tsx';
import { cellLooks, drawnPods, MatrixGrid } from './MatrixGrid.tsx';
import { PortFields } from './PortFields.tsx';
import { type NetpolSearch, portOf } from './query.ts';
import { type CellState, cellState, cellWords, fieldError, type ReachabilityMatrix } from './types.ts';

const legendOrder: CellState[] = ['allowed', 'ingress', 'egress', 'both'];

function Legend() {
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
      {legendOrder.map((state) => {
        const { look, mark, side } = cellLooks[state];
        return (
          <li key={state} className="flex items-center gap-1.5">
            <span
              aria-hidden="true"
              className={`inline-flex h-6 w-8 flex-col items-center justify-center rounded leading-none ${look}`}
            >
              <span className="font-semibold">{mark}</span>
              {side && <span className="text-[9px]">{side}</span>}
            </span>
            <span>{cellWords[state]}</span>
          </li>
        );
      })}
      <li className={mutedLook}>
        Hover or focus a cell for the deciding policies; open it to test that pair.
      </li>
    </ul>
  );
}

/** Every pod of a namespace to every pod: the grid, a legend, and how many pairs may talk. */
export function MatrixView({ search, show }: { search: NetpolSearch; show: (search: NetpolSearch) => void }) {
  const [namespace, setNamespace] = useState(search.matrix ?? '');
  const [port, setPort] = useState(search.port === undefined ? '' : String(search.port));
  const [protocol, setProtocol] = useState(search.protocol ?? 'TCP');
  const query = { matrix: search.matrix, port: search.port, protocol: search.protocol };
  const matrix = useQuery({
    queryKey: ['netpol', 'matrix', query],
    queryFn: async ({ signal }) =>
      (await get('/api/network-policies/evaluate', { query, signal })) as ReachabilityMatrix,
  });
  const refused = fieldError(matrix.error);
  const data = matrix.data;
  const allowed = data?.cells.flat().filter((c) => cellState(c) === 'allowed').length ?? 0;
  return (
    <div className="flex flex-col gap-3">
      <form
        aria-label="Matrix to show"
        className="flex flex-wrap items-start gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          show({ matrix: namespace.trim(), port: portOf(port), protocol });
        }}
      >
        <NamespaceField
          label="Pods in namespace"
          value={namespace}
          onText={setNamespace}
          error={refused?.field === 'matrix' ? refused.message : undefined}
        />
        <PortFields
          port={port}
          protocol={protocol}
          onPort={setPort}
          onProtocol={setProtocol}
          portError={refused?.field === 'port' ? refused.message : undefined}
        />
        <button type="submit" className={`${primaryLook} mt-6`}>
          Show
        </button>
      </form>
      {matrix.isPending ? (
        <Loading what={`the matrix of ${search.matrix}`} />
      ) : matrix.isError ? (
        refused ? null : (
          <ErrorMessage error={matrix.error} what={`the matrix of ${search.matrix}`} />
        )
      ) : !data || data.pods.length === 0 ? (
        <Empty>No pods in {search.matrix}.</Empty>
      ) : (
        <section
          aria-label={`Matrix of ${search.matrix}`}
          className={`${panelLook} flex flex-col gap-3 pb-3`}
        >
          <p role="status" className="text-sm">
            <span className="font-semibold">{data.pods.length} pods</span> · {allowed} of{' '}
            {data.pods.length ** 2} pairs allowed on{' '}
            {data.port === 'any' ? `some ${data.protocol} port` : `${data.protocol} port ${data.port}`}
            {data.pods.length > drawnPods && ` · the first ${drawnPods} pods are drawn`}
          </p>
          <Legend />
          <MatrixGrid matrix={data} search={search} />
        </section>
      )}
    </div>
  );
}
