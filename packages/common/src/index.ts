export { mapConcurrently } from './concurrency.ts';
export { DurationError, formatDuration, parseDuration } from './durations.ts';
export { type ErrorBody, type ErrorCode, errorCodes, errorTableMarkdown, statusOf } from './errors.ts';
export { parseQuantity } from './quantities.ts';
export { parseSize, SizeError, sizePattern } from './sizes.ts';
