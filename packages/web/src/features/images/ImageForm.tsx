import { type FormEvent, useId } from 'react';
import { primaryLook } from '../../ui/controls.tsx';

/** What the form sets: the image, the platform of a multi-platform one, pull secrets named outright. */
export interface ImageFields {
  image?: string;
  platform?: string;
  pullSecrets?: string;
}

const field =
  'mt-1 rounded-md border border-slate-300 bg-white px-2 py-1 font-mono text-sm text-slate-900 dark:border-slate-700 dark:bg-slate-800 dark:text-slate-100';
const labelLook = 'flex flex-col text-xs text-slate-600 dark:text-slate-400';

function Field(props: {
  name: keyof ImageFields;
  label: string;
  value?: string;
  placeholder: string;
  wide?: boolean;
}) {
  const id = `${useId()}-${props.name}`;
  return (
    <label className={`${labelLook} ${props.wide ? 'min-w-0 flex-1' : ''}`} htmlFor={id}>
      {props.label}
      <input
        id={id}
        name={props.name}
        className={`${field} ${props.wide ? '' : 'w-44'}`}
        defaultValue={props.value ?? ''}
        placeholder={props.placeholder}
        spellCheck={false}
        autoComplete="off"
        required={props.name === 'image'}
      />
    </label>
  );
}

/** The image to open, typed as a pod spec names it. */
export function ImageForm({ fields, open }: { fields: ImageFields; open: (fields: ImageFields) => void }) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = (name: keyof ImageFields) => String(data.get(name) ?? '').trim() || undefined;
    const image = value('image');
    if (image) open({ image, platform: value('platform'), pullSecrets: value('pullSecrets') });
  };
  return (
    // The key resets the fields when the URL names another image (Back, a link from a pod).
    <form
      key={`${fields.image}|${fields.platform}|${fields.pullSecrets}`}
      aria-label="Open an image"
      className="flex flex-wrap items-end gap-3"
      onSubmit={submit}
    >
      <Field
        name="image"
        label="Image reference"
        value={fields.image}
        placeholder="registry/repository:tag or @sha256:…"
        wide
      />
      <Field name="platform" label="Platform" value={fields.platform} placeholder="the nodes' own" />
      <Field name="pullSecrets" label="Pull secrets" value={fields.pullSecrets} placeholder="name,name…" />
      <button type="submit" className={primaryLook}>
        Open
      </button>
    </form>
  );
}
