import { mutedLook } from '../../ui/controls.tsx';
import { type AuditReport, type Category, categories } from './types.ts';

type Counts = { passing: number; warning: number; danger: number };

const figures = [
  ['danger', 'Danger', 'text-red-700 dark:text-red-300'],
  ['warning', 'Warning', 'text-amber-700 dark:text-amber-300'],
  ['passing', 'Passing', 'text-emerald-700 dark:text-emerald-300'],
] as const;

function CategoryCard(props: { title: string; counts: Counts; pressed: boolean; onPress: () => void }) {
  const { counts } = props;
  const total = counts.danger + counts.warning;
  return (
    <button
      type="button"
      aria-pressed={props.pressed}
      onClick={props.onPress}
      className={`rounded-lg border border-slate-200 bg-white px-4 py-3 text-left shadow-sm hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-teal-600 dark:border-slate-800 dark:bg-slate-900 dark:hover:bg-slate-800 ${
        props.pressed ? 'ring-2 ring-teal-600 dark:ring-teal-400' : ''
      }`}
    >
      <span className="flex items-baseline justify-between gap-2">
        <span className="text-sm font-semibold">{props.title}</span>
        <span className={`text-xs ${mutedLook}`}>
          {total} {total === 1 ? 'finding' : 'findings'}
        </span>
      </span>
      <span className="mt-2 grid grid-cols-3 gap-2">
        {figures.map(([key, label, colour]) => (
          <span key={key} className="flex flex-col">
            <span className={`text-2xl font-semibold tabular-nums ${counts[key] > 0 ? colour : ''}`}>
              {counts[key]}
            </span>
            <span className={`text-xs ${mutedLook}`}>{key === 'passing' ? 'objects pass' : label}</span>
          </span>
        ))}
      </span>
    </button>
  );
}

/**
 * The audit's counts: findings by severity (danger, warning) and the objects that pass, overall and per category.
 * A category's card filters the findings to it; the overall card shows every category again.
 */
export function AuditSummary(props: {
  summary: AuditReport['summary'];
  category?: Category;
  choose: (category?: Category) => void;
}) {
  const { summary, category, choose } = props;
  return (
    <section aria-label="Summary" className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
      <CategoryCard
        title="All categories"
        counts={summary}
        pressed={category === undefined}
        onPress={() => choose(undefined)}
      />
      {categories.map((c) => (
        <CategoryCard
          key={c}
          title={c}
          counts={summary.categories[c]}
          pressed={category === c}
          onPress={() => choose(category === c ? undefined : c)}
        />
      ))}
    </section>
  );
}
