import { errorResponses, Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import type { App } from '../../context.ts';
import { callerAware } from '../../http/caller.ts';
import { csv } from '../../http/query.ts';
import { NamespaceParam, ObjectNameParam } from '../../http/schemas.ts';
import type { ImagesContext } from './module.ts';
import { defaultImageCacheDir, type ImageQuery, ImageService } from './service.ts';

const tags = ['images'];

const imageQuery = {
  image: Type.String({
    minLength: 1,
    maxLength: 512,
    description: 'image reference: [registry/]repository[:tag][@digest]',
  }),
  namespace: Type.Optional(NamespaceParam),
  // A pod whose imagePullSecrets hold the credentials (needs namespace).
  pod: Type.Optional(ObjectNameParam),
  pullSecrets: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'pull secrets of the namespace to use, comma-separated (needs namespace)',
    }),
  ),
  platform: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 64,
      description:
        "os/architecture[/variant] of a multi-platform image (default: most of the cluster's nodes)",
    }),
  ),
};

const Descriptor = Type.Object({ mediaType: Type.String(), digest: Type.String(), size: Type.Integer() });

const FileNode = Type.Object(
  {
    name: Type.String(),
    path: Type.String(),
    type: Type.Enum(['file', 'directory', 'symlink', 'hardlink', 'other']),
    size: Type.Integer({ description: 'bytes of a file; of a directory, of everything below it' }),
    mode: Type.Integer({ description: 'permission bits (e.g. 493 = 0755)' }),
    linkTarget: Type.Optional(Type.String()),
    layer: Type.Integer({ description: 'index in layers of the layer the entry came from (-1: the root)' }),
    children: Type.Optional(Type.Array(Type.Ref('ImageFileNode'))),
  },
  { $id: 'ImageFileNode' },
);

const Document = Type.Record(Type.String(), Type.Unknown());

const imageQueryOf = (q: {
  image: string;
  namespace?: string;
  pod?: string;
  pullSecrets?: string;
  platform?: string;
}): ImageQuery => ({
  image: q.image,
  namespace: q.namespace,
  pod: q.pod,
  pullSecrets: csv(q.pullSecrets),
  platform: q.platform,
});

/**
 * GET /api/images/metadata|inspect|file: an image's manifest and config, its merged filesystem, one file.
 * Pod and pull secrets are read as the caller; the registry is asked with the credentials found there.
 */
export function imageRoutes(app: App, ctx: ImagesContext): void {
  const images = new ImageService(ctx, {
    cacheDir: ctx.config.imageCacheDir ?? defaultImageCacheDir(ctx.config.dataDir),
    cacheMaxBytes: ctx.config.imageCacheMaxBytes,
    fileMaxBytes: ctx.config.imageFileMaxBytes,
  });
  app.addSchema(FileNode);

  app.get(
    '/api/images/metadata',
    {
      config: callerAware,
      schema: {
        tags,
        summary: "An image's manifest (of the chosen platform) and config, its layers and how it was pulled",
        querystring: Query(imageQuery),
        response: {
          200: Type.Object({
            image: Type.String(),
            registry: Type.String(),
            repository: Type.String(),
            digest: Type.String(),
            indexDigest: Type.Optional(Type.String()),
            mediaType: Type.String(),
            platform: Type.String(),
            manifest: Document,
            config: Document,
            layers: Type.Array(Descriptor),
            layerCount: Type.Integer(),
            totalSize: Type.Integer({ description: 'compressed bytes of all layers' }),
            authMethod: Type.Enum(['anonymous', 'basic', 'bearer']),
            credentialSource: Type.Optional(
              Type.String({ description: 'namespace/name of the pull secret used' }),
            ),
            cached: Type.Boolean({ description: "every layer is in the agent's disk cache" }),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => images.metadata(imageQueryOf(request.query), request.caller),
  );

  app.get(
    '/api/images/inspect',
    {
      config: callerAware,
      schema: {
        tags,
        summary:
          'The merged filesystem tree of all layers (whiteouts applied), with the layer each entry came from',
        querystring: Query(imageQuery),
        response: {
          200: Type.Object({
            image: Type.String(),
            digest: Type.String(),
            platform: Type.String(),
            root: Type.Ref('ImageFileNode'),
            totalFiles: Type.Integer(),
            totalSize: Type.Integer({ description: 'bytes of all files, uncompressed' }),
            layers: Type.Array(Descriptor),
          }),
          ...errorResponses,
        },
      },
    },
    (request) => images.inspect(imageQueryOf(request.query), request.caller),
  );

  app.get(
    '/api/images/file',
    {
      config: callerAware,
      schema: {
        tags,
        summary: 'One file of the image as an attachment (links followed), up to --image-file-max-size',
        produces: ['application/octet-stream'],
        querystring: Query({
          ...imageQuery,
          path: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path in the image' }),
        }),
        response: { 200: Type.String({ description: 'application/octet-stream' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const file = await images.file(
        { ...imageQueryOf(request.query), path: request.query.path },
        request.caller,
      );
      return reply
        .type('application/octet-stream')
        .header('Content-Length', String(file.size))
        .header(
          'Content-Disposition',
          `attachment; filename="${file.name.replace(/[^\x20-\x7e]|["\\]/g, '_')}"`,
        )
        .send(file.content);
    },
  );
}
