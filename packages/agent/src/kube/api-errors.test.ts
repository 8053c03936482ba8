import { describe, expect, it } from 'vitest';
import { fromKubeResponse, fromNetworkError } from './api-errors.ts';

const status = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', status: 'Failure', code, reason, message });

describe('the Kubernetes error adapter', () => {
  it.each([
    [400, 'BadRequest', 'invalid_request', 400, 'bad selector'],
    [
      401,
      'Unauthorized',
      'cluster_credentials_rejected',
      502,
      "the Kubernetes API server rejected the agent's credentials (401); check the kubeconfig or service account",
    ],
    [403, 'Forbidden', 'forbidden', 403, 'pods is forbidden'],
    [404, 'NotFound', 'not_found', 404, 'pods "x" not found'],
    [409, 'Conflict', 'conflict', 409, 'Apply failed with 1 conflict'],
    [409, 'AlreadyExists', 'already_exists', 409, 'pods "x" already exists'],
    [410, 'Expired', 'resource_version_expired', 410, 'too old resource version'],
    [422, 'Invalid', 'invalid', 422, 'Service "x" is invalid'],
    [429, 'TooManyRequests', 'rate_limited', 429, 'too many requests'],
    [500, 'InternalError', 'cluster_error', 502, 'the Kubernetes API server failed (500 InternalError)'],
    [
      503,
      'ServiceUnavailable',
      'cluster_error',
      502,
      'the Kubernetes API server failed (503 ServiceUnavailable)',
    ],
    [504, 'Timeout', 'cluster_timeout', 504, 'the Kubernetes API server timed out (504 Timeout)'],
  ])('maps %i %s to %s (%i)', (httpStatus, reason, code, ourStatus, message) => {
    const error = fromKubeResponse(
      httpStatus,
      status(httpStatus, reason, httpStatus >= 500 ? 'etcdserver: leader changed at 10.0.0.3' : message),
    );
    expect(error.code).toBe(code);
    expect(error.status).toBe(ourStatus);
    expect(error.message).toBe(message);
  });

  it('keeps internals of a 5xx out of the message but in the log detail', () => {
    const error = fromKubeResponse(
      500,
      status(500, 'InternalError', 'etcdserver: leader changed at 10.0.0.3'),
    );
    expect(error.message).not.toContain('etcd');
    expect(error.detail).toMatchObject({ kube: 'etcdserver: leader changed at 10.0.0.3' });
  });

  it('passes Retry-After through on 429 and reads a body that is not a Status', () => {
    expect(
      fromKubeResponse(429, status(429, 'TooManyRequests', 'slow down'), { 'retry-after': '7' }).headers,
    ).toEqual({ 'Retry-After': '7' });
    expect(fromKubeResponse(404, '404 page not found').toBody()).toEqual({
      error: '404 page not found',
      code: 'not_found',
    });
  });

  it.each([
    [
      { code: 'ECONNREFUSED' },
      'cluster_unreachable',
      503,
      'the Kubernetes API server at k8s.example:6443 is unreachable (ECONNREFUSED)',
    ],
    [
      { code: 'UND_ERR_CONNECT_TIMEOUT' },
      'cluster_timeout',
      504,
      'the Kubernetes API server at k8s.example:6443 did not answer in time',
    ],
    [
      { code: 'UND_ERR_HEADERS_TIMEOUT' },
      'cluster_timeout',
      504,
      'the Kubernetes API server at k8s.example:6443 did not answer in time',
    ],
    [
      { code: 'ERR_TLS_CERT_ALTNAME_INVALID', message: 'Hostname/IP does not match certificate' },
      'cluster_unreachable',
      503,
      'the Kubernetes API server at k8s.example:6443 is unreachable (TLS verification failed)',
    ],
    [
      { message: 'self-signed certificate in certificate chain', code: 'SELF_SIGNED_CERT_IN_CHAIN' },
      'cluster_unreachable',
      503,
      'the Kubernetes API server at k8s.example:6443 is unreachable (TLS verification failed)',
    ],
  ] as [{ code: string; message?: string }, string, number, string][])(
    'maps a network failure %j',
    (cause, code, httpStatus, message) => {
      const error = fromNetworkError(
        Object.assign(new Error(cause.message ?? 'x'), cause),
        new URL('https://k8s.example:6443'),
      );
      expect([error.code, error.status, error.message]).toEqual([code, httpStatus, message]);
    },
  );
});
