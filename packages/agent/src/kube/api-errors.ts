import type { ErrorCode } from '@binnacle/common';
import { AppError } from '@binnacle/common/server';

/** The body Kubernetes sends with a failed request. */
export interface KubeStatus {
  kind?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    kind?: string;
    causes?: { field?: string; message?: string; reason?: string }[];
  };
}

const byReason: Record<string, ErrorCode> = {
  AlreadyExists: 'already_exists',
  Conflict: 'conflict',
  Invalid: 'invalid',
  NotFound: 'not_found',
  Forbidden: 'forbidden',
  Expired: 'resource_version_expired',
  Gone: 'resource_version_expired',
  TooManyRequests: 'rate_limited',
  Unauthorized: 'cluster_credentials_rejected',
  BadRequest: 'invalid_request',
  Timeout: 'cluster_timeout',
  ServerTimeout: 'cluster_timeout',
  RequestEntityTooLarge: 'payload_too_large',
  UnsupportedMediaType: 'unsupported_media_type',
};

function codeOf(status: number, reason: string | undefined): ErrorCode {
  if (reason && byReason[reason]) return byReason[reason];
  if (status === 400) return 'invalid_request';
  if (status === 401) return 'cluster_credentials_rejected';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 410) return 'resource_version_expired';
  if (status === 413) return 'payload_too_large';
  if (status === 415) return 'unsupported_media_type';
  if (status === 422) return 'invalid';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'cluster_timeout';
  return 'cluster_error';
}

function parseStatus(text: string): KubeStatus {
  try {
    const parsed = JSON.parse(text) as KubeStatus;
    return typeof parsed === 'object' && parsed ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * The one place Kubernetes API failures become Binnacle errors. Client-side failures keep the API server's
 * message (it names the object and the rule); server-side failures (5xx) keep only the status and reason,
 * and the full text goes to the log through `detail`.
 */
export function fromKubeResponse(
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined> = {},
): AppError {
  const body = parseStatus(bodyText);
  const code = codeOf(status, body.reason);
  const kubeMessage = body.message || bodyText.slice(0, 300) || `HTTP ${status}`;
  const extraHeaders: Record<string, string> = {};
  const retryAfter = headers['retry-after'];
  if (code === 'rate_limited')
    extraHeaders['Retry-After'] = (Array.isArray(retryAfter) ? retryAfter[0] : retryAfter) ?? '1';
  let message: string;
  switch (code) {
    case 'cluster_error':
      message = `the Kubernetes API server failed (${status}${body.reason ? ` ${body.reason}` : ''})`;
      break;
    case 'cluster_timeout':
      message = `the Kubernetes API server timed out (${status}${body.reason ? ` ${body.reason}` : ''})`;
      break;
    case 'cluster_credentials_rejected':
      message =
        "the Kubernetes API server rejected the agent's credentials (401); check the kubeconfig or service account";
      break;
    default:
      message = kubeMessage;
  }
  return new AppError(code, message, {
    headers: extraHeaders,
    detail: { status, kube: body.message ?? bodyText.slice(0, 2000) },
  });
}

const timeoutCodes = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

/** The words a TLS failure is reported with (the connection status tells it apart from other network failures). */
export const tlsFailure = 'TLS verification failed';

/** A request that never got an HTTP answer: refused, reset, TLS failure, DNS, timeout. */
export function fromNetworkError(error: unknown, server: URL): AppError {
  const err = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code ?? '';
  if (error instanceof AppError) return error;
  if (timeoutCodes.has(code)) {
    return new AppError(
      'cluster_timeout',
      `the Kubernetes API server at ${server.host} did not answer in time`,
      { cause: error },
    );
  }
  const why =
    code.startsWith('ERR_TLS') || /CERT|certificate|self.signed/i.test(err.message ?? '')
      ? tlsFailure
      : code || 'connection failed';
  return new AppError(
    'cluster_unreachable',
    `the Kubernetes API server at ${server.host} is unreachable (${why})`,
    { cause: error },
  );
}
