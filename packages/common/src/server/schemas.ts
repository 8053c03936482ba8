import { type Static, type TSchema, type TStringOptions, Type } from 'typebox';
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

/** What every stream may send besides its own events (the SSE layer's heartbeat and its last word). */
const streamEvents = {
  heartbeat: Type.Object({ time: Type.String() }),
  end: Type.Object({ reason: Type.String() }),
};

/**
 * One event of a stream. In OpenAPI 3.1 a stream's schema describes each event (3.2 names that `itemSchema`); its
 * `data` is a string of JSON whose shape `contentSchema` gives (JSON Schema 2020-12: a validator reads the string as
 * it is on the wire; the web UI's types read the decoded shape).
 */
const sseEvent = (data: TSchema, event?: string) =>
  Type.Object({
    ...(event === undefined ? {} : { event: Type.Literal(event) }),
    data: Type.String({ contentMediaType: 'application/json', contentSchema: data }),
    id: Type.Optional(Type.String()),
    retry: Type.Optional(Type.Integer()),
  });

/** What a stream's producer may send, from the events its route declares: each name and its data's type. */
export type StreamEventsOf<Declared extends Record<string, TSchema>> = {
  [Name in keyof Declared]: Static<Declared[Name]>;
};

/** The answers of a `text/event-stream` route whose events are `events` (name → its data), heartbeat and end. */
export function sseEvents(events: Record<string, TSchema>) {
  const all: Record<string, TSchema> = { ...events, ...streamEvents };
  return {
    200: Type.Union(
      Object.entries(all).map(([name, data]) => sseEvent(data, name)),
      { description: 'one server-sent event (text/event-stream): its data is the JSON its `event` names' },
    ),
    ...errorResponses,
  };
}

/** The answers of a `text/event-stream` route that sends only `data:` frames, each `frame` as JSON. */
export function sseData(frame: TSchema) {
  return {
    200: { ...sseEvent(frame), description: 'one server-sent `data:` frame (text/event-stream)' },
    ...errorResponses,
  };
}

/** A query schema that rejects unknown parameters (every route has one, even with no parameters). */
export function Query<T extends Record<string, TSchema>>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

/** What a record's keys must be: JSON Schema's string limits. */
interface KeyLimits {
  pattern?: string;
  minLength?: number;
  maxLength?: number;
}

/**
 * An object of string keys to `value`, its keys held to `keys`. TypeBox's Record keeps no limit of a string key
 * (a `Type.String({ maxLength })` key validated nothing), so the limits go in JSON Schema's `propertyNames`.
 */
export const StringRecord = <V extends TSchema>(
  keys: KeyLimits,
  value: V,
  options: { maxProperties?: number; description?: string } = {},
) => Type.Record(Type.String(), value, { ...options, propertyNames: { type: 'string', ...keys } });

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
