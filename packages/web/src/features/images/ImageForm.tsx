import { type FormEvent, useId } from 'react';
import { primaryLook } from '../../ui/controls.tsx';

const field =
  'mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100';
const labelLook = 'flex flex-col text-xs text-slate-600 dark:text-slate-400';

/** The image to open, typed as a pod spec names it, and the platform of a multi-platform one. */
export function ImageForm(props: {
  image?: string;
  platform?: string;
  open: (image: string, platform?: string) => void;
}) {
  const id = useId();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const image = String(data.get('image') ?? '').trim();
    const platform = String(data.get('platform') ?? '').trim();
    if (image) props.open(image, platform || undefined);
  };
  return (
    // The key resets the fields when the URL names another image (Back, a link from a pod).
    <form
      key={`${props.image}|${props.platform}`}
      aria-label="Open an image"
      className="flex flex-wrap items-end gap-3"
      onSubmit={submit}
    >
      <label className={`${labelLook} min-w-0 flex-1`} htmlFor={`${id}-image`}>
        Image reference
        <input
          id={`${id}-image`}
          name="image"
          className={`${field} font-mono`}
          defaultValue={props.image ?? ''}
          placeholder="registry/repository:tag or @sha256:…"
          spellCheck={false}
          autoComplete="off"
          required
        />
      </label>
      <label className={labelLook} htmlFor={`${id}-platform`}>
        Platform
        <input
          id={`${id}-platform`}
          name="platform"
          className={`${field} w-40 font-mono`}
          defaultValue={props.platform ?? ''}
          placeholder="the nodes' own"
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      <button type="submit" className={primaryLook}>
        Open
      </button>
    </form>
  );
}
