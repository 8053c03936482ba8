import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-xl font-semibold">No such page</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        The address does not match a page of Binnacle.
      </p>
      <Link
        to="/"
        className="mt-4 inline-block text-sm font-medium text-teal-800 underline dark:text-teal-300"
      >
        Go to the dashboard
      </Link>
    </div>
  );
}
