import {
  durationPattern,
  parseDuration,
  parseStep,
  parseTimeOrDuration,
  parseUnixTimeOrDuration,
  stepPattern,
  timeOrDurationPattern,
  unixTimeOrDurationPattern,
} from '../durations.ts';
import { dnsLabelPattern } from '../kube-names.ts';
import { echo, maxEcho } from './errors.ts';

/** The words of the parser the pattern belongs to, so schema and code refuse a value alike. */
const parserWords =
  (parse: (value: string, field: string) => unknown) =>
  (value: string, field: string): string => {
    // The parser's words repeat the value; one this long is no duration or time, and is not repeated whole.
    if (value.length > maxEcho) return `${field}: "${echo(value)}" is invalid`;
    try {
      parse(value, field);
    } catch (error) {
      return (error as Error).message;
    }
    return `${field}: "${value}" is invalid`;
  };

/** For patterns whose regex tells a person little: the refusal, in words, naming the field and the value. */
const explainers: Record<string, (value: string, field: string) => string> = {
  [dnsLabelPattern]: (value, field) =>
    `${field}: "${echo(value)}" is not a DNS-1123 label (lowercase letters, digits and "-", starting and ending with a letter or digit)`,
  [durationPattern]: parserWords(parseDuration),
  [timeOrDurationPattern]: parserWords((value, field) => parseTimeOrDuration(value, field, Date.now())),
  [stepPattern]: parserWords(parseStep),
  [unixTimeOrDurationPattern]: parserWords((value, field) =>
    parseUnixTimeOrDuration(value, field, Date.now()),
  ),
};

/** Why `value` does not match `pattern`, when the pattern is one we have words for. */
export function explainPattern(pattern: unknown, value: unknown, field: string): string | undefined {
  const explain = typeof pattern === 'string' ? explainers[pattern] : undefined;
  return explain && typeof value === 'string' ? explain(value, field) : undefined;
}
