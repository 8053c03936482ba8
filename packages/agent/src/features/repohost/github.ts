import { AppError, badRequest } from '@binnacle/common/server';
import { request } from 'undici';

const timeoutMs = 10_000;

/**
 * Stars a repository as the person whose token this is (GitHub's `PUT /user/starred/{owner}/{repo}`, then its
 * `GET` to confirm). The token is used for these two calls only: never stored, never logged.
 */
export async function starAs(apiUrl: string, repository: string, token: string): Promise<void> {
  const url = `${apiUrl.replace(/\/$/, '')}/user/starred/${repository}`;
  const call = async (method: 'PUT' | 'GET') => {
    try {
      const answer = await request(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': '2022-11-28',
          'user-agent': 'binnacle-agent',
          ...(method === 'PUT' ? { 'content-length': '0' } : {}),
        },
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await answer.body.text();
      return { status: answer.statusCode, message: messageOf(text) };
    } catch (error) {
      throw new AppError('repohost_error', `the code host at ${apiUrl} could not be reached`, {
        cause: error,
      });
    }
  };
  const starred = await call('PUT');
  if (starred.status === 401 || starred.status === 403)
    throw badRequest(
      `the code host refused the token (${starred.status}${starred.message}): star needs a token allowed to star repositories`,
    );
  if (starred.status !== 204)
    throw new AppError(
      'repohost_error',
      `the code host answered ${starred.status}${starred.message} to the star`,
    );
  const check = await call('GET');
  if (check.status !== 204)
    throw new AppError(
      'repohost_error',
      `the code host does not show ${repository} as starred (${check.status})`,
    );
}

/** GitHub's `{message}` of an error answer, as `: message`, short. */
function messageOf(text: string): string {
  try {
    const { message } = JSON.parse(text) as { message?: unknown };
    return typeof message === 'string' && message ? `: ${message.slice(0, 200)}` : '';
  } catch {
    return '';
  }
}
