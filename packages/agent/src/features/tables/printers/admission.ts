import type { StatusTone } from '@binnacle/common';
import { kubectlDuration } from '@binnacle/common';
import { age, ageColumn, arr, column, formatLabelSelector, obj, str } from './format.ts';
import type { Printer } from './index.ts';

/** Printers of admission webhooks and certificate signing requests (ADR 0053). */

export const webhookConfigurationPrinter: Printer = {
  columns: [column('WEBHOOKS', 'integer'), ageColumn],
  print: (object) => ({ cells: [arr(object.webhooks).length, age(object)] }),
};

/** CONDITION: Denied, else Approved, else Pending; then `,Failed` and `,Issued` as they apply. */
export function csrCondition(status: unknown): string {
  const types = new Set(arr(obj(status).conditions).map((condition) => condition.type));
  let text = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) text += ',Failed';
  if (str(obj(status).certificate) !== '') text += ',Issued';
  return text;
}

const csrTone = (text: string): StatusTone =>
  text.startsWith('Denied') || text.includes('Failed') ? 'error' : text === 'Pending' ? 'progress' : 'ok';

export const certificateSigningRequestPrinter: Printer = {
  columns: [
    ageColumn,
    column('SIGNERNAME'),
    column('REQUESTOR'),
    column('REQUESTEDDURATION'),
    column('CONDITION'),
  ],
  print(object) {
    const spec = obj(object.spec);
    const condition = csrCondition(object.status);
    return {
      cells: [
        age(object),
        str(spec.signerName) || null,
        str(spec.username),
        typeof spec.expirationSeconds === 'number' ? kubectlDuration(spec.expirationSeconds * 1000) : null,
        condition,
      ],
      status: { text: condition, tone: csrTone(condition) },
    };
  },
};

/** A validating or mutating admission policy: how many rules (`validations` or `mutations`) and its parameters. */
const admissionPolicyPrinter = (rules: string, header: string): Printer => ({
  columns: [column(header, 'integer'), column('PARAMKIND'), ageColumn],
  print(object) {
    const spec = obj(object.spec);
    const paramKind = spec.paramKind === undefined ? undefined : obj(spec.paramKind);
    return {
      cells: [
        arr(spec[rules]).length,
        paramKind ? `${str(paramKind.apiVersion)}/${str(paramKind.kind)}` : '<unset>',
        age(object),
      ],
    };
  },
});

export const validatingAdmissionPolicyPrinter = admissionPolicyPrinter('validations', 'VALIDATIONS');
export const mutatingAdmissionPolicyPrinter = admissionPolicyPrinter('mutations', 'MUTATIONS');

/**
 * PARAMREF of a policy binding: `namespace/name`, `*` for a name without a namespace. A parameter chosen by
 * selector prints as the selector's text here; the server prints Go's struct dump there (not reproduced).
 */
function paramRef(ref: unknown): string {
  if (ref === undefined || ref === null) return '<unset>';
  const entry = obj(ref);
  if (str(entry.name)) return `${str(entry.namespace) || '*'}/${str(entry.name)}`;
  return entry.selector === undefined ? '<unset>' : (formatLabelSelector(entry.selector) ?? '');
}

export const admissionPolicyBindingPrinter: Printer = {
  columns: [column('POLICYNAME'), column('PARAMREF'), ageColumn],
  print(object) {
    const spec = obj(object.spec);
    return { cells: [str(spec.policyName), paramRef(spec.paramRef), age(object)] };
  },
};
