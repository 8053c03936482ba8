const healthColours: Record<string, string> = {
  healthy: 'bg-emerald-600',
  degraded: 'bg-amber-500',
  unhealthy: 'bg-red-600',
  missing: 'bg-red-600',
  unknown: 'bg-slate-400',
};

/** An object's health: a dot for the eye, the word for everyone. */
export function HealthBadge({ health }: { health: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-sm">
      <span
        aria-hidden="true"
        className={`h-2 w-2 rounded-full ${healthColours[health] ?? 'bg-slate-400'}`}
      />
      {health}
    </span>
  );
}
