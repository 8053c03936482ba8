import { ObjectLink } from '../../ui/ObjectLink.tsx';
import { policyRef } from './types.ts';

/** A NetworkPolicy named `namespace/name`, linked to its page. */
export function PolicyLink({ policy }: { policy: string }) {
  return <ObjectLink kind="NetworkPolicy" {...policyRef(policy)} />;
}
