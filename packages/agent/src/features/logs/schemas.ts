import { Type } from 'typebox';

/**
 * What a log stream sends: `connected` with what it follows, a `log` per line, and for a workload its pods coming
 * and going, a `warning` when it follows no more, an `error` when one container cannot be read (the others go on).
 */
export const logStreamEvents = {
  connected: Type.Object({
    namespace: Type.String(),
    workload: Type.Optional(Type.Object({ kind: Type.String(), name: Type.String() })),
    pods: Type.Array(Type.String()),
    containers: Type.Array(Type.String()),
  }),
  log: Type.Object({
    pod: Type.String(),
    container: Type.String(),
    timestamp: Type.Optional(Type.String({ description: 'without `timestamps=false`' })),
    line: Type.String(),
  }),
  pod: Type.Object({ pod: Type.String(), change: Type.Enum(['added', 'removed']) }),
  warning: Type.Object({ message: Type.String() }),
  error: Type.Object(
    { pod: Type.String(), container: Type.String(), error: Type.String(), code: Type.String() },
    { additionalProperties: true },
  ),
};
