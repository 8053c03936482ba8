import { type TSchema, type TStringOptions, Type } from 'typebox';
import {
  durationPattern,
  stepPattern,
  timeOrDurationPattern,
  unixTimeOrDurationPattern,
} from '../durations.ts';

/** `{ error, code }` — the shape of every error response. */
export const ErrorSchema = Type.Object(
  { error: Type.String(), code: Type.String() },
  {
    $id: 'Error',
    additionalProperties: true,
    description:
      'Every error: a human message and a machine-readable code (docs/api/errors.md); some add context fields',
  },
);

const errorResponse = {
  description: 'An error: { error, code } (docs/api/errors.md)',
  // Stated, because a route that produces another type (a stream, a file) still fails in JSON.
  content: { 'application/json': { schema: Type.Ref('Error') } },
};

/** Error responses every route declares, so the OpenAPI document shows them. */
export const errorResponses = { '4xx': errorResponse, '5xx': errorResponse };

/**
 * The answers of a `text/event-stream` route. In OpenAPI 3.1 a stream's schema describes each event (3.2 names
 * that `itemSchema`), so it is an event's fields, not the stream's text; `data` is JSON, shaped by `event`.
 */
export const sseResponses = {
  200: Type.Object(
    {
      event: Type.Optional(Type.String()),
      data: Type.String({ description: 'JSON' }),
      id: Type.Optional(Type.String()),
      retry: Type.Optional(Type.Integer()),
    },
    { description: 'one server-sent event (text/event-stream)' },
  ),
  ...errorResponses,
};

/** A query schema that rejects unknown parameters (every route has one, even with no parameters). */
export function Query<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

/** A value or null (a setting that may be unset). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A duration in hours form (`90s`, `5m`, `1h30m`), checked with the pattern its parser uses. */
export const Duration = (options: TStringOptions = {}) =>
  Type.String({ ...options, pattern: durationPattern });

/** An RFC 3339 time or a duration back from now (`since`), checked with the pattern its parser uses. */
export const TimeOrDuration = (options: TStringOptions = {}) =>
  Type.String({ ...options, pattern: timeOrDurationPattern });

/** A range query's step: seconds or a duration, checked with the pattern its parser uses. */
export const Step = (options: TStringOptions = {}) => Type.String({ ...options, pattern: stepPattern });

/** A metrics query's time: Unix seconds, an RFC 3339 time or a duration back from now. */
export const UnixTimeOrDuration = (options: TStringOptions = {}) =>
  Type.String({ ...options, pattern: unixTimeOrDurationPattern });
