export { mapConcurrently } from './concurrency.ts';
export { DurationError, formatDuration, parseDuration } from './durations.ts';
export { type ErrorBody, type ErrorCode, errorCodes, errorTableMarkdown, statusOf } from './errors.ts';
export { dnsLabelPattern, dnsSubdomainPattern } from './kube-names.ts';
export { parseSize, SizeError } from './sizes.ts';
