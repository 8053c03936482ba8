export { type AppOptions, createApp, type TypedApp } from './app.ts';
export { ComparedObjectParam, ComparisonAnswer } from './compare-schema.ts';
export {
  type ContentCoding,
  compressAbove,
  compressible,
  negotiateCoding,
} from './compression.ts';
export {
  describeValidation,
  type PageFallback,
  registerErrorHandling,
  routeNotFound,
  sendError,
  toAppError,
} from './error-handler.ts';
export {
  AppError,
  badRequest,
  echo,
  forbidden,
  internal,
  notFound,
  notReady,
  unauthenticated,
} from './errors.ts';
export { jsonDepth, utf8Body } from './json-body.ts';
export { redactedPaths, serverLogger } from './logger.ts';
export { type McpEndpoint, registerMcpEndpoint } from './mcp-endpoint.ts';
export { type FeatureModule, modulesFor, registerModules } from './modules.ts';
export { maxNestingDepth } from './nesting.ts';
export { openApiRoute, registerOpenApi } from './openapi.ts';
export {
  type OptionSpec,
  type OptionType,
  type ParsedOptions,
  parseOptions,
  resolveOptions,
  UsageError,
} from './options.ts';
export { formatDefault, helpDefault, optionsHelp } from './options-help.ts';
export { explainPattern } from './pattern-errors.ts';
export {
  Duration,
  ErrorSchema,
  errorResponses,
  Nullable,
  Query,
  Step,
  type StreamEventsOf,
  StringRecord,
  sseData,
  sseEvents,
  TimeOrDuration,
  UnixTimeOrDuration,
} from './schemas.ts';
export { exitOnCrash, exitOnSignal } from './shutdown.ts';
export { registerWebAssets, type WebUiMode, webDist, webPage } from './web-ui.ts';
export {
  checkedYamlDocuments,
  parseYaml,
  parseYamlDocuments,
  type YamlLimits,
  yamlLimits,
} from './yaml.ts';
