import { Link } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import type { Answer } from '../../api/client.ts';
import { Badge, type Tone } from '../../ui/Badge.tsx';
import { linkLook, mutedLook, panelLook } from '../../ui/controls.tsx';
import { FieldChanges } from '../timeline/FieldChanges.tsx';

type Between = Answer<'/api/changes/between'>;
type ChangeGroup = Between['groups'][number];
type Modified = ChangeGroup['modified'][number];
type How = 'created' | 'deleted' | 'modified';

const tone: Record<How, Tone> = { created: 'good', deleted: 'bad', modified: 'info' };
/** Field diffs open by themselves for the first objects only: a page of a thousand open tables reads as noise. */
const openedDiffs = 12;

/** How the Resources page names the kind: with its group when it has one, so a CRD's kind is not ambiguous. */
const kindParam = (group: ChangeGroup) => (group.group ? `${group.kind}.${group.group}` : group.kind);

/**
 * Each kind in each namespace with its created, deleted and modified objects; a name opens its kind's table as it
 * was when the object existed (`to`, or `from` for one deleted since), a modified one shows its changed fields.
 */
export function ChangeGroups({ between }: { between: Between }) {
  let diffs = 0;
  return between.groups.map((group) => {
    const where = group.namespace ? `namespace ${group.namespace}` : 'cluster-scoped';
    const object = (how: How, name: string) => (
      <Link
        to="/resources/$kind"
        params={{ kind: kindParam(group) }}
        search={{ namespace: group.namespace, q: name, at: how === 'deleted' ? between.from : between.to }}
        className={`${linkLook} font-mono text-sm`}
      >
        {name}
      </Link>
    );
    const rows = [
      ...group.created.map((o) => ({ how: 'created' as const, o })),
      ...group.deleted.map((o) => ({ how: 'deleted' as const, o })),
    ];
    return (
      <section
        key={`${group.group}/${group.kind}/${group.namespace ?? ''}`}
        aria-label={`${group.kind} in ${where}`}
        className={`${panelLook} pb-3`}
      >
        <h2 className="flex flex-wrap items-baseline gap-2 text-sm font-semibold">
          {group.kind}
          <span className={`font-normal ${mutedLook}`}>{where}</span>
        </h2>
        <ul className="mt-2 flex flex-col gap-1.5">
          {rows.map(({ how, o }) => (
            <li key={`${how}/${o.uid ?? o.name}`} className="flex items-center gap-2">
              <Badge tone={tone[how]}>{how}</Badge>
              {object(how, o.name)}
            </li>
          ))}
          {group.modified.map((o) => (
            <li key={`modified/${o.uid ?? o.name}`} className="flex flex-col gap-1.5">
              <ModifiedObject modified={o} open={diffs++ < openedDiffs} name={object('modified', o.name)} />
            </li>
          ))}
        </ul>
      </section>
    );
  });
}

/** A modified object's line, its changed fields opening beneath it (a link cannot sit inside a disclosure button). */
function ModifiedObject(props: { modified: Modified; open: boolean; name: ReactNode }) {
  const { modified, name } = props;
  const [open, setOpen] = useState(props.open);
  const id = useId();
  const count = modified.fields.length;
  return (
    <>
      <div className="flex items-center gap-2">
        <Badge tone={tone.modified}>modified</Badge>
        {name}
        <button
          type="button"
          aria-expanded={open}
          aria-label={`${count} changed field${count === 1 ? '' : 's'} of ${modified.name}`}
          aria-controls={open ? id : undefined}
          className={`flex items-center gap-1 rounded px-1 text-xs hover:bg-slate-100 dark:hover:bg-slate-800 ${mutedLook}`}
          onClick={() => setOpen(!open)}
        >
          <span aria-hidden="true" className={`transition-transform ${open ? 'rotate-90' : ''}`}>
            ▸
          </span>
          {count} changed field{count === 1 ? '' : 's'}
          {modified.moreFields ? ' (more not listed)' : ''}
        </button>
      </div>
      {open && (
        <div id={id} className="ml-6 rounded-md bg-slate-50 p-2 dark:bg-slate-950">
          <FieldChanges fields={modified.fields} caption={`Changed fields of ${modified.name}`} />
        </div>
      )}
    </>
  );
}
