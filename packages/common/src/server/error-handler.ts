import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { trackAllowedMethods } from './allowed-methods.ts';
import { AppError, echo, internal } from './errors.ts';
import { fromFramework } from './framework-errors.ts';
import { explainPattern } from './pattern-errors.ts';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
  /** The refused value (ajv's `verbose`). */
  data?: unknown;
}

const where: Record<string, string> = {
  querystring: 'query parameter',
  body: 'body field',
  params: 'path parameter',
  headers: 'header',
};

/** Names the field a validation failure is about, the way a person would say it. */
export function describeValidation(context: string | undefined, issue: ValidationIssue): string {
  const kind = where[context ?? ''] ?? 'field';
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (issue.keyword === 'additionalProperties') {
    const extra = echo(String(issue.params?.additionalProperty));
    return `unknown ${kind} "${path ? `${path}.` : ''}${extra}"`;
  }
  if (issue.keyword === 'required') {
    const missing = String(issue.params?.missingProperty);
    return `missing ${kind} "${path ? `${path}.` : ''}${missing}"`;
  }
  if (issue.keyword === 'pattern') {
    const explained = explainPattern(issue.params?.pattern, issue.data, `${kind} "${path}"`);
    if (explained) return explained;
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    return `${kind} "${path}" must be one of: ${issue.params.allowedValues.join(', ')}`;
  }
  if (!path) return `${context ?? 'request'} ${issue.message ?? 'is invalid'}`;
  return `${kind} "${path}" ${issue.message ?? 'is invalid'}`;
}

/** Maps anything thrown to the error it is answered with. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (fe.validation?.[0])
    return new AppError('invalid_request', describeValidation(fe.validationContext, fe.validation[0]));
  const framework = fromFramework(fe);
  if (framework) return framework;
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError('invalid_request', fe.message);
  }
  return internal(error);
}

/**
 * Answers a failure as `{error, code}`; only 5xx are logged, and their details never leave. Also fastify's
 * `frameworkErrors` handler: those answers skip the onRequest hooks, so no-store is set here as well.
 */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  const appError = toAppError(error);
  if (appError.code === 'internal_error') {
    request.log.error({ err: appError.cause ?? error, code: appError.code }, appError.message);
  } else if (appError.status >= 500) {
    // The cluster is unreachable or still loading: expected states, reported without a stack.
    request.log.warn({ code: appError.code, detail: appError.detail }, appError.message);
  } else if (appError.detail) {
    request.log.debug({ code: appError.code, detail: appError.detail }, appError.message);
  }
  void reply
    .code(appError.status)
    .headers({ 'Cache-Control': 'no-store', ...appError.headers })
    .send(appError.toBody());
}

/** The answer for a path no route serves, naming at most the first characters of a long one. */
export const routeNotFound = (method: string, path: string) =>
  new AppError('route_not_found', `no route for ${method} ${echo(path)}`);

/** The page a browser gets for a path of the web UI (a deep link), e.g. index.html. */
export type PageFallback = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

const isPageRequest = (method: string, path: string) =>
  (method === 'GET' || method === 'HEAD') && path !== '/api' && !path.startsWith('/api/');

export function registerErrorHandling(app: FastifyInstance, page?: PageFallback): void {
  const allowedMethods = trackAllowedMethods(app);
  /** 405 with `Allow` for a path some route serves with other methods, else 404. */
  const notServed = (request: FastifyRequest) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return new AppError(
        'method_not_allowed',
        `${request.method} is not allowed on ${echo(path)}; use ${allowed.join(', ')}`,
        { headers: { Allow: allowed.join(', ') } },
      );
    }
    return routeNotFound(request.method, path);
  };
  app.setErrorHandler((error, request, reply) => {
    // Fastify reads the body of a request no route serves before its not-found handler runs, and refuses a
    // QUERY without Content-Type or a body it cannot parse there: no route means 404 or 405, whatever the body.
    const framework = (error as FastifyError).code?.startsWith('FST_');
    sendError(request.is404 && framework ? notServed(request) : error, request, reply);
  });
  // Thrown rather than sent, so the error handler answers these like any other failure.
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A path a route serves with other methods (POST /auth/backchannel-logout) is that route's, never a page.
    if (page && isPageRequest(request.method, path) && allowedMethods(path).length === 0)
      return page(request, reply);
    throw notServed(request);
  });
}
