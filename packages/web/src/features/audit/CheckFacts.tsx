import { linkLook, mutedLook } from '../../ui/controls.tsx';
import { aliasText, type CheckMeta, frameworkRef } from './types.ts';

/** `https://kubernetes.io/docs/concepts/security/pod-security-standards/` → `kubernetes.io › concepts/security/…`. */
function referenceText(url: string): string {
  try {
    const { host, pathname, hash } = new URL(url);
    const path = `${pathname.replace(/^\/docs\//, '/').replace(/^\/|\/$/g, '')}${hash}`;
    return path ? `${host} › ${path}` : host;
  } catch {
    return url;
  }
}

/** What the catalogue says about a check: why it matters, how to fix it, the frameworks and pages it cites. */
export function CheckFacts({ check }: { check: CheckMeta }) {
  const others = check.aliases.map(aliasText);
  return (
    <dl className="mt-2 grid gap-x-4 gap-y-1.5 text-xs sm:grid-cols-[7rem_1fr]">
      <dt className={mutedLook}>Why it matters</dt>
      <dd>{check.description}</dd>
      <dt className={mutedLook}>How to fix</dt>
      <dd className="border-l-2 border-teal-600 pl-2 font-medium text-slate-900 dark:border-teal-400 dark:text-slate-100">
        {check.remediation}
      </dd>
      {check.frameworks.length > 0 && (
        <>
          <dt className={mutedLook}>Frameworks</dt>
          <dd>
            <ul className="flex flex-col gap-0.5">
              {check.frameworks.map(frameworkRef).map((ref) => (
                <li key={ref.full} title={ref.full}>
                  <span className="mr-1.5 rounded border border-slate-300 px-1 py-px font-mono text-[11px] dark:border-slate-600">
                    {ref.tag}
                  </span>
                  {ref.topic}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {(check.references.length > 0 || others.length > 0) && (
        <>
          <dt className={mutedLook}>References</dt>
          <dd className="flex flex-wrap gap-x-3 gap-y-0.5">
            {check.references.map((url) => (
              <a key={url} href={url} target="_blank" rel="noreferrer" className={linkLook}>
                {referenceText(url)}
              </a>
            ))}
            {others.length > 0 && <span className={mutedLook}>also {others.join(', ')}</span>}
          </dd>
        </>
      )}
    </dl>
  );
}
