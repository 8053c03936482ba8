import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { ApiError, get } from '../../api/client.ts';
import { linkLook, mutedLook, panelLook } from '../../ui/controls.tsx';
import { PageHeading } from '../../ui/PageHeading.tsx';
import { Empty, ErrorMessage, Loaded, Loading } from '../../ui/states.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { useSearchPatch } from '../../ui/use-search-patch.ts';
import { imageConfig, layerCommands } from './config.ts';
import { FilesView } from './FilesView.tsx';
import type { ImageQuery } from './file-head.ts';
import { ImageConfigPanel } from './ImageConfigPanel.tsx';
import { type ImageFields, ImageForm } from './ImageForm.tsx';
import { ImageLayers } from './ImageLayers.tsx';
import { ImageSummary } from './ImageSummary.tsx';
import type { ImagesSearch, ImageTab } from './search.ts';
import { entriesPerLayer } from './tree.ts';

// Tags move, so the agent asks the registry on every call; within a visit the answer is kept.
const imageQueryOptions = { staleTime: 5 * 60_000, refetchOnWindowFocus: false } as const;

/**
 * A container image straight from its registry: what it is, its layers, how it runs, and its merged filesystem
 * to browse, with any file readable in place or downloaded. Opened from a pod (its pull secrets are used) or by
 * typing a reference.
 */
export function ImagesPage() {
  const search = useSearch({ from: '/images' });
  const navigate = useNavigate();
  const open = (fields: ImageFields) =>
    void navigate({
      to: '/images',
      search: (prev) => ({ namespace: prev.namespace, pod: prev.pod, ...fields }),
    });
  const pod = search.pod && search.namespace ? { namespace: search.namespace, name: search.pod } : undefined;
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <PageHeading
        title={search.image ? 'Image' : 'Images'}
        about={
          pod ? (
            <>
              Read with the pull secrets of pod{' '}
              <Link
                to="/resources/$kind/$namespace/$name"
                params={{ kind: 'pods', namespace: pod.namespace, name: pod.name }}
                className={linkLook}
              >
                {pod.namespace}/{pod.name}
              </Link>
            </>
          ) : (
            'A container image read from its registry: no node, no container runtime'
          )
        }
      />
      <ImageForm fields={search} open={open} />
      {search.image ? (
        <ImageView
          query={{
            image: search.image,
            namespace: search.namespace,
            pod: search.pod,
            pullSecrets: search.pullSecrets,
            platform: search.platform,
          }}
          search={search}
        />
      ) : (
        <Empty>
          Type an image reference above, or follow an image from a pod's page so its pull secrets are used.
        </Empty>
      )}
    </div>
  );
}

function ImageView({ query, search }: { query: ImageQuery; search: ImagesSearch }) {
  const patch = useSearchPatch<ImagesSearch>();
  const metadata = useQuery({
    queryKey: ['image-metadata', query],
    queryFn: ({ signal }) => get('/api/images/metadata', { query: { ...query }, signal }),
    ...imageQueryOptions,
  });
  const inspect = useQuery({
    queryKey: ['image-inspect', query],
    queryFn: ({ signal }) => get('/api/images/inspect', { query: { ...query }, signal }),
    ...imageQueryOptions,
  });
  const tab: ImageTab = search.tab ?? 'files';
  const commands = useMemo(
    () => (metadata.data ? layerCommands(metadata.data.config, metadata.data.layers.length) : []),
    [metadata.data],
  );
  const counts = useMemo(
    () => (inspect.data ? entriesPerLayer(inspect.data.root) : undefined),
    [inspect.data],
  );
  const layerWords = useCallback(
    (layer: number) =>
      layer < 0 ? 'the root' : `layer ${layer}${commands[layer] ? `: ${commands[layer]}` : ''}`,
    [commands],
  );
  if (metadata.isPending) return <Loading what={`${query.image} from its registry`} />;
  if (metadata.isError)
    return (
      <>
        <ErrorMessage error={metadata.error} what={query.image} />
        {metadata.error instanceof ApiError && metadata.error.status === 401 && (
          <p className={`text-sm ${mutedLook}`}>
            The agent reads registry credentials from pull secrets only: open the image from a pod that pulls
            it, or name pull secrets of the namespace in view above.
          </p>
        )}
      </>
    );
  const layers = metadata.data.layers.map((l, i) => ({
    ...l,
    command: commands[i],
    entries: counts ? (counts.get(i) ?? 0) : undefined,
  }));
  return (
    <>
      <ImageSummary metadata={metadata.data} files={inspect.data} />
      <Tabs
        label="Image views"
        tabs={[
          { id: 'files', label: 'Filesystem' },
          { id: 'layers', label: `Layers (${layers.length})` },
          { id: 'config', label: 'Config' },
        ]}
        current={tab}
        choose={(id) => patch({ tab: id === 'files' ? undefined : id })}
      >
        {tab === 'layers' ? (
          <div className={panelLook}>
            <ImageLayers layers={layers} show={(layer) => patch({ tab: undefined, layer, q: undefined })} />
          </div>
        ) : tab === 'config' ? (
          <div className={`${panelLook} pb-3`}>
            <ImageConfigPanel config={imageConfig(metadata.data.config)} />
          </div>
        ) : (
          <Loaded
            query={inspect}
            what="the image's filesystem (the agent reads each layer once, then keeps it)"
          >
            {(data) => (
              <FilesView
                root={data.root}
                image={query}
                search={search}
                layerCount={layers.length}
                layerWords={layerWords}
              />
            )}
          </Loaded>
        )}
      </Tabs>
    </>
  );
}
