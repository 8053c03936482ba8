import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';
import { maxNestingDepth } from './nesting.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body's bytes as text, refused when they are not UTF-8: a lenient decoder turns them into U+FFFD, which was
 * then stored as if the caller had sent it.
 */
export function utf8Body(bytes: Buffer, what = 'the body'): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest(`${what} is not valid UTF-8`);
  }
}

/**
 * How deep a JSON text nests, counted in one pass without recursion, so that 5 000 levels cost a scan instead
 * of a stack overflow in JSON.parse's consumers (JSON.stringify, redaction). Brackets inside strings do not
 * count. Stops counting once past `limit`.
 */
export function jsonDepth(text: string, limit = maxNestingDepth): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Every JSON body of the app is decoded strictly and refused past {@link maxNestingDepth} levels before it is
 * parsed (ADR 0046), then parsed by fastify's own parser (which keeps its prototype-poisoning checks).
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = utf8Body(body as Buffer, 'the JSON body');
      if (jsonDepth(text) > maxNestingDepth)
        throw badRequest(`the JSON body nests deeper than ${maxNestingDepth} levels`);
    } catch (error) {
      done(error as Error, undefined);
      return;
    }
    void parse(request, text, done);
  });
}
