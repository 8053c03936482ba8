import { Query } from '@binnacle/common/server';
import { Type } from 'typebox';
import { AtParam } from '../../http/query.ts';
import { GroupParam } from '../../http/schemas.ts';
import { tableLimits } from './service.ts';

const Tone = Type.Enum(['ok', 'warning', 'error', 'progress', 'muted']);

export const TableColumnSchema = Type.Object({
  name: Type.String({ description: 'the header as kubectl prints it' }),
  type: Type.Enum(['string', 'integer', 'number', 'date', 'quantity']),
  priority: Type.Union([Type.Literal(0), Type.Literal(1)], {
    description: '1: shown only by `kubectl get -o wide`',
  }),
  description: Type.Optional(Type.String()),
});

const RelativeTime = Type.Object(
  { at: Type.String(), before: Type.Optional(Type.String()), after: Type.Optional(Type.String()) },
  { description: 'printed as before + the kubectl age of (now - at) + after' },
);

const TableCell = Type.Union([Type.String(), Type.Number(), Type.Null(), RelativeTime], {
  description: 'null is kubectl\'s "<none>"',
});

const Status = Type.Object({ text: Type.String(), tone: Tone });

export const TableRowSchema = Type.Object({
  uid: Type.String(),
  namespace: Type.Optional(Type.String()),
  name: Type.String(),
  cells: Type.Array(TableCell, { description: 'in column order' }),
  status: Type.Optional(Status),
});

const StatusCount = Type.Object({ text: Type.String(), tone: Tone, count: Type.Integer() });

export const TableWindowSchema = Type.Object({
  kind: Type.String(),
  group: Type.String(),
  apiVersion: Type.String(),
  namespaced: Type.Boolean(),
  source: Type.Enum(['cache', 'live', 'history']),
  columns: Type.Array(TableColumnSchema, {
    description: 'NAME and NAMESPACE are not columns: rows carry them',
  }),
  total: Type.Integer({ description: 'rows after every filter, exactly' }),
  offset: Type.Integer(),
  rows: Type.Array(TableRowSchema),
  statuses: Type.Array(StatusCount, {
    description:
      'every status among the rows the other filters leave, with counts (before the status filter)',
  }),
});

/** A table stream's `patch`: only what changed in the window it sent before (`TableWindowPatch`). */
export const TableWindowPatchSchema = Type.Object({
  rows: Type.Optional(Type.Array(TableRowSchema, { description: 'rows new to the window or changed in it' })),
  removed: Type.Optional(Type.Array(Type.String(), { description: 'uids that left the window' })),
  order: Type.Optional(
    Type.Array(Type.String(), {
      description: "the window's uids in order, when order or membership changed",
    }),
  ),
  total: Type.Optional(Type.Integer()),
  statuses: Type.Optional(Type.Array(StatusCount)),
});

/** What a table stream sends: its window, then patches of it; `error` when the window can no longer be read. */
export const tableStreamEvents = {
  window: TableWindowSchema,
  patch: TableWindowPatchSchema,
  error: Type.Ref('Error'),
};

const tableQueryFields = {
  group: Type.Optional(GroupParam),
  namespace: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
  namespaces: Type.Optional(
    Type.String({ minLength: 1, maxLength: 4096, description: 'comma-separated namespaces' }),
  ),
  labelSelector: Type.Optional(Type.String({ maxLength: 1024 })),
  filter: Type.Optional(
    Type.String({
      maxLength: 253,
      description:
        'a plain substring (not a pattern) of the name, the namespace or any text cell; case-insensitive',
    }),
  ),
  status: Type.Optional(
    Type.String({ minLength: 1, maxLength: 1024, description: 'comma-separated status texts to keep' }),
  ),
  sort: Type.Optional(
    Type.String({ minLength: 1, maxLength: 63, description: 'a column name, `name` or `namespace`' }),
  ),
  order: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'asc' })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: tableLimits.limit.max, default: tableLimits.limit.default }),
  ),
};
export const TableQuerySchema = Query(tableQueryFields);
/** A window's query, which may also ask for the table as it was at a past moment (time travel). */
export const TableWindowQuerySchema = Query({ ...tableQueryFields, at: Type.Optional(AtParam) });
