import { useState } from 'react';

/** A secret the hub shows once (an access token, an agent token), with a copy button and the warning. */
export function ShownOnce({ label, secret }: { label: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
      <p className="font-medium">{label}: copy it now, it is never shown again.</p>
      <div className="mt-2 flex items-center gap-2">
        <input
          readOnly
          aria-label={label}
          value={secret}
          className="min-w-0 flex-1 truncate rounded bg-white px-2 py-1 text-xs dark:bg-slate-900 font-mono"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className="rounded-md border border-slate-300 px-2 py-1 text-xs hover:bg-white dark:border-slate-700 dark:hover:bg-slate-800"
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
    </div>
  );
}
