export { DurationError, formatDuration, parseDuration } from './durations.ts';
export { type ErrorBody, type ErrorCode, errorCodes, statusOf } from './errors.ts';
