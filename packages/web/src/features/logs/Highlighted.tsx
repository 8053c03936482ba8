/** Text with every occurrence of the searched words marked. */
export function Highlighted({ text, needle }: { text: string; needle: string }) {
  if (!needle) return <>{text}</>;
  const parts = text.split(needle);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one line never reorder.
        <span key={index}>
          {index > 0 && <mark className="rounded-sm bg-yellow-200 text-slate-900">{needle}</mark>}
          {part}
        </span>
      ))}
    </>
  );
}
