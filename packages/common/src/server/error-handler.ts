import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, internal } from './errors.ts';

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
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
    const extra = String(issue.params?.additionalProperty);
    return `unknown ${kind} "${path ? `${path}.` : ''}${extra}"`;
  }
  if (issue.keyword === 'required') {
    const missing = String(issue.params?.missingProperty);
    return `missing ${kind} "${path ? `${path}.` : ''}${missing}"`;
  }
  if (issue.keyword === 'enum' && Array.isArray(issue.params?.allowedValues)) {
    return `${kind} "${path}" must be one of: ${issue.params.allowedValues.join(', ')}`;
  }
  if (!path) return `${context ?? 'request'} ${issue.message ?? 'is invalid'}`;
  return `${kind} "${path}" ${issue.message ?? 'is invalid'}`;
}

const fastifyCodes: Record<string, (error: FastifyError) => AppError> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (e) => new AppError('unsupported_media_type', e.message),
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('payload_too_large', 'request body is too large'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('invalid_request', 'request body is not valid JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('invalid_request', 'request body is empty but Content-Type is JSON'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () =>
    new AppError('invalid_request', 'Content-Length does not match the body'),
};

/** Maps anything thrown to the `{error, code}` body; only 5xx are logged, and their details never leave. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fe = error as FastifyError & { validation?: ValidationIssue[]; validationContext?: string };
  if (fe.validation?.[0])
    return new AppError('invalid_request', describeValidation(fe.validationContext, fe.validation[0]));
  const mapped = fe.code ? fastifyCodes[fe.code] : undefined;
  if (mapped) return mapped(fe);
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return new AppError('invalid_request', fe.message);
  }
  return internal(error);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const appError = toAppError(error);
    if (appError.code === 'internal_error') {
      request.log.error({ err: appError.cause ?? error, code: appError.code }, appError.message);
    } else if (appError.status >= 500) {
      // The cluster is unreachable or still loading: expected states, reported without a stack.
      request.log.warn({ code: appError.code, detail: appError.detail }, appError.message);
    } else if (appError.detail) {
      request.log.debug({ code: appError.code, detail: appError.detail }, appError.message);
    }
    void reply.code(appError.status).headers(appError.headers).send(appError.toBody());
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new AppError(
      'route_not_found',
      `no route for ${request.method} ${request.url.split('?')[0]}`,
    );
    void reply.code(error.status).send(error.toBody());
  });
}
