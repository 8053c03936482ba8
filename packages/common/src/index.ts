export { type BackoffSchedule, backoffDelay, probeSchedule, retrySchedule } from './backoff.ts';
export {
  type ComparedSide,
  type Comparison,
  compareObjects,
  comparisonOf,
  type FieldDifference,
  type FoldReason,
  splitObjectRef,
} from './compare/compare.ts';
export { mapConcurrently } from './concurrency.ts';
export {
  DurationError,
  durationPattern,
  formatDuration,
  parseDuration,
  parseStep,
  parseTime,
  parseTimeOrDuration,
  parseUnixTimeOrDuration,
  rfc3339Pattern,
  stepPattern,
  timeOrDurationPattern,
  unixTimeOrDurationPattern,
} from './durations.ts';
export {
  type EcosystemKind,
  groupOf,
  type Integration,
  integrationOf,
  integrations,
} from './ecosystem.ts';
export {
  type ActionKind,
  actionKindOf,
  type EcosystemAction,
  ecosystemActionKinds,
  ecosystemActionsOf,
  kedaPaused,
  type PostgresBackupMethod,
  type PostgresBackupTarget,
  parsePluginParameters,
  pausedAnnotation,
  pausedReplicasAnnotation,
  pluginParameterNamePattern,
  pluginParametersMax,
  pluginParameterValueMax,
  postgresBackupMethods,
  postgresBackupTargets,
  qualifiedKind,
} from './ecosystem-actions.ts';
export { type ErrorBody, type ErrorCode, errorCodes, errorTableMarkdown, statusOf } from './errors.ts';
export { codePointOrder, dnsLabelPattern, dnsSubdomainPattern } from './kube-names.ts';
export type { KubeObject } from './kube-object.ts';
export {
  defaultColumns,
  type FieldFilter,
  type FilteredLine,
  fieldKeys,
  hasOwnColumn,
  lineMatches,
  parseFieldFilter,
} from './logs/filter.ts';
export {
  type LogLevel,
  logLevels,
  normalizeLevel,
  parseStructured,
  type StructuredLine,
} from './logs/structured.ts';
export {
  callerPattern,
  callerPatternMaxChars,
  keepMatching,
  linearRegex,
  PatternError,
  quoteRegex,
} from './patterns.ts';
export {
  addResourceAmounts,
  podRequestAmounts,
  type ResourceAmounts,
  resourceAmounts,
} from './pod-requests.ts';
export {
  failingPodStatuses,
  isFailingPod,
  isFailingStatus,
  type PodLike,
  type PodSummary,
  podStatusText,
  podSummary,
  podTone,
} from './pod-status.ts';
export { parseQuantity } from './quantities.ts';
export { searchLimits } from './search-limits.ts';
export { parseSize, SizeError, sizePattern } from './sizes.ts';
export {
  cellText,
  isRelativeTime,
  kubectlDuration,
  type RelativeTime,
  type StatusCount,
  type StatusTone,
  type TableCell,
  type TableColumn,
  type TableColumnType,
  type TableRow,
  type TableWindowPatch,
} from './tables.ts';
export { boundedTextContent, maxAnswerChars } from './tool-answer.ts';
export { bareTopologyKinds, podOwnerGroups, topologyKindName, topologyNodeId } from './topology-kinds.ts';
export { urlHost } from './url-host.ts';
