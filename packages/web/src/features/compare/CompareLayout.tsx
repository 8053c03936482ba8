import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Answer } from '../../api/client.ts';
import { mutedLook } from '../../ui/controls.tsx';
import { Card, ErrorMessage, Loading } from '../../ui/states.tsx';
import { ComparisonView } from './ComparisonView.tsx';

/** A Compare page (agent or hub): its heading, the form, and the answer once both sides are named. */
export function CompareLayout({
  title,
  lead,
  form,
  answer,
  asked,
}: {
  title: string;
  lead: string;
  form: ReactNode;
  answer: UseQueryResult<Answer<'/api/compare'>>;
  asked: boolean;
}) {
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-4">
      <div>
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className={`text-sm ${mutedLook}`}>{lead}</p>
      </div>
      <Card title="What to compare">{form}</Card>
      {asked &&
        (answer.isPending ? (
          <Loading what="the comparison" />
        ) : answer.isError ? (
          <ErrorMessage error={answer.error} what="both objects" verb="compare" />
        ) : (
          <ComparisonView answer={answer.data} />
        ))}
    </div>
  );
}
