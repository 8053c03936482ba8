import type { Answer } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { formatBytes } from '../../ui/units.ts';
import { When } from '../resources/details/When.tsx';

type Metadata = Answer<'/api/images/metadata'>;

const authWords: Record<Metadata['authMethod'], string> = {
  anonymous: 'anonymous',
  basic: 'basic auth',
  bearer: 'token',
};

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className={`text-xs ${mutedLook}`}>{label}</dt>
      <dd className="text-sm whitespace-nowrap">{children}</dd>
    </div>
  );
}

/** What identifies the image and how big it is: the facts `crane manifest` and `docker inspect` lead with. */
export function ImageSummary({
  metadata,
  files,
}: {
  metadata: Metadata;
  /** The merged tree's totals, once it is read. */
  files?: { totalFiles: number; totalSize: number };
}) {
  const created = typeof metadata.config.created === 'string' ? metadata.config.created : undefined;
  return (
    <dl className="flex flex-wrap gap-x-8 gap-y-3 rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <div className="min-w-0 max-w-xs">
        <dt className={`text-xs ${mutedLook}`}>Digest</dt>
        <dd className="truncate font-mono text-xs leading-5" title={metadata.digest}>
          {metadata.digest}
        </dd>
      </div>
      <Fact label="Platform">{metadata.platform}</Fact>
      <Fact label="Created">{created ? <When at={created} /> : 'not recorded'}</Fact>
      <Fact label="Size">
        {formatBytes(metadata.totalSize)} compressed
        {files && <span className={mutedLook}> · {formatBytes(files.totalSize)} unpacked</span>}
      </Fact>
      <Fact label="Contents">
        {metadata.layerCount} layer{metadata.layerCount === 1 ? '' : 's'}
        {files && `, ${files.totalFiles.toLocaleString('en-US')} files`}
      </Fact>
      <Fact label="Pulled">
        <span title={metadata.credentialSource ? `pull secret ${metadata.credentialSource}` : undefined}>
          {authWords[metadata.authMethod]}
          {metadata.credentialSource && `, secret ${metadata.credentialSource}`}
        </span>
      </Fact>
    </dl>
  );
}
