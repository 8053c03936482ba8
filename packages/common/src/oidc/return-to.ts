/**
 * The page to land on after sign-in: a path on the server itself (hub or agent), else `/`. Anything that could leave the origin
 * (`//evil`, `/\evil`, encoded backslashes, schemes) or smuggle a header (control characters) is refused.
 */
export function safeReturnTo(value: string | undefined, publicUrl: string): string {
  if (!value?.startsWith('/') || value.startsWith('//')) return '/';
  const unsafe = [...value].some(
    (char) => char === '\\' || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f,
  );
  if (unsafe || /%5c|%2f%2f|%0d|%0a/i.test(value)) return '/';
  const hub = new URL(publicUrl);
  const target = new URL(value, hub);
  if (target.origin !== hub.origin) return '/';
  return `${target.pathname}${target.search}${target.hash}`;
}
