import { controlLook } from '../../ui/forms.tsx';

/** A values field in YAML, as text (the agent parses it; invalid YAML is its 400 naming the problem). */
export function ValuesField(props: {
  label: string;
  value: string;
  onText: (text: string) => void;
  rows?: number;
}) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      {props.label}
      <textarea
        className={`${controlLook} font-mono text-xs`}
        rows={props.rows ?? 6}
        spellCheck={false}
        value={props.value}
        placeholder={'config:\n  currency: USD'}
        onChange={(e) => props.onText(e.target.value)}
      />
    </label>
  );
}
