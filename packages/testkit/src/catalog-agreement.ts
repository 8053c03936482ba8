import { deref, type Node, type Problem } from './catalog-openapi.ts';

/**
 * Whether the catalog contract (catalog-contract.ts) agrees with Artifact Hub's published OpenAPI document:
 * catalog-openapi.test.ts runs this wherever the document can be had.
 */

/** A schema with its `allOf` parts merged and `nullable` as a `null` type; `types` undefined: any value. */
interface Flat {
  types?: Set<string>;
  format?: string;
  enum?: unknown[];
  properties: Map<string, Node>;
  required: Set<string>;
  items?: Node;
}

function flatten(document: Node, raw: Node): Flat {
  const schema = deref(document, raw);
  const flat: Flat = { properties: new Map(), required: new Set() };
  for (const part of (schema.allOf ?? []) as Node[]) {
    const inner = flatten(document, part);
    flat.types ??= inner.types;
    flat.format ??= inner.format;
    flat.enum ??= inner.enum;
    flat.items ??= inner.items;
    for (const [name, sub] of inner.properties)
      if (!flat.properties.has(name)) flat.properties.set(name, sub);
    for (const name of inner.required) flat.required.add(name);
  }
  if (schema.type !== undefined) flat.types = new Set([schema.type].flat() as string[]);
  if (schema.nullable === true) flat.types?.add('null');
  if (typeof schema.format === 'string') flat.format = schema.format;
  if (Array.isArray(schema.enum)) flat.enum = schema.enum;
  if (schema.items) flat.items = schema.items as Node;
  for (const [name, sub] of Object.entries((schema.properties ?? {}) as Record<string, Node>))
    flat.properties.set(name, sub);
  for (const name of (schema.required ?? []) as string[]) flat.required.add(name);
  return flat;
}

/**
 * Where a smaller OpenAPI document (the catalog contract) says what a larger one (Artifact Hub's) does not: an
 * operation, path, parameter, status, content type, header or field the larger one lacks; a type, format or enum
 * value it does not allow; a parameter or field it requires that the smaller one leaves optional or out.
 */
export function disagreements(contract: Node, document: Node, operationIds: readonly string[]): Problem[] {
  const problems: Problem[] = [];
  const operationsOf = (doc: Node) =>
    Object.entries((doc.paths ?? {}) as Record<string, Node>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op: op as Node })),
    );
  const baseOf = (doc: Node) => ((doc.servers ?? []) as { url: string }[])[0]?.url ?? '';
  if (baseOf(contract) !== baseOf(document))
    problems.push(`base path ${baseOf(contract)} is ${baseOf(document) || 'none'} in the document`);

  const compare = (opId: string, at: string, mine: Node, theirs: Node) => {
    const c = flatten(contract, mine);
    const d = flatten(document, theirs);
    const where = `${opId} ${at || 'body'}`;
    if (d.types) {
      const wrong = [...(c.types ?? ['any'])].filter(
        (t) => !d.types?.has(t) && !(t === 'integer' && d.types?.has('number')),
      );
      if (wrong.length > 0)
        problems.push(`${where}: ${wrong.join('|')} where the document allows ${[...d.types].join('|')}`);
    }
    if (d.format && c.format !== d.format)
      problems.push(`${where}: format ${c.format ?? 'none'}, not ${d.format}`);
    const outside = c.enum && d.enum ? c.enum.filter((v) => !d.enum?.includes(v)) : [];
    if (outside.length > 0)
      problems.push(`${where}: ${outside.join(', ')} is not among the document's values`);
    if (c.items) compare(opId, `${at}[]`, c.items, d.items ?? {});
    for (const [name, sub] of c.properties) {
      const field = at === '' ? name : `${at}.${name}`;
      const known = d.properties.has(name) || d.required.has(name);
      if (!known) problems.push(`${opId} ${field} is not in the document`);
      else if (d.required.has(name) && !c.required.has(name))
        problems.push(`${opId} ${field} is required by the document, optional in the contract`);
      else compare(opId, field, sub, d.properties.get(name) ?? {});
    }
    for (const name of d.required)
      if (!c.properties.has(name) && c.types?.has('object'))
        problems.push(
          `${opId} ${at === '' ? name : `${at}.${name}`} is required by the document, not in the contract`,
        );
  };

  for (const id of operationIds) {
    const mine = operationsOf(contract).find((o) => o.op.operationId === id);
    const theirs = operationsOf(document).find((o) => o.op.operationId === id);
    if (!mine || !theirs) {
      problems.push(`${id} is not in the ${mine ? 'document' : 'contract'}`);
      continue;
    }
    if (mine.path !== theirs.path || mine.method !== theirs.method)
      problems.push(`${id} is ${mine.method} ${mine.path}, ${theirs.method} ${theirs.path} in the document`);
    const params = (o: Node) => ((o.parameters ?? []) as Node[]).map((p) => deref(document, p));
    const theirParams = params(theirs.op);
    for (const p of params(mine.op)) {
      const other = theirParams.find((q) => q.name === p.name && q.in === p.in);
      if (!other) problems.push(`${id} ${p.in} parameter ${p.name} is not in the document`);
      else if ((other.required === true) !== (p.required === true))
        problems.push(`${id} ${p.in} parameter ${p.name} is required in one document only`);
      else compare(id, `${p.in} parameter ${p.name}`, p.schema as Node, (other.schema ?? {}) as Node);
    }
    for (const q of theirParams)
      if (q.required === true && !params(mine.op).some((p) => p.name === q.name && p.in === q.in))
        problems.push(`${id} ${q.in} parameter ${q.name} is required by the document, not in the contract`);
    const responses = (o: Node) => (o.responses ?? {}) as Record<string, Node>;
    for (const [status, answer] of Object.entries(responses(mine.op))) {
      const raw = responses(theirs.op)[status] ?? responses(theirs.op).default;
      if (!raw) {
        problems.push(`${id} answer ${status} is not in the document`);
        continue;
      }
      const other = deref(document, raw);
      for (const [type, media] of Object.entries((answer.content ?? {}) as Record<string, Node>)) {
        const theirMedia = ((other.content ?? {}) as Record<string, Node>)[type];
        if (!theirMedia) problems.push(`${id} answer ${status} ${type} is not in the document`);
        else
          compare(
            id,
            status === '200' ? '' : `answer ${status}`,
            media.schema as Node,
            (theirMedia.schema ?? {}) as Node,
          );
      }
      const theirHeaders = Object.entries((other.headers ?? {}) as Record<string, Node>);
      for (const [name, header] of Object.entries((answer.headers ?? {}) as Record<string, Node>)) {
        const found = theirHeaders.find(([n]) => n.toLowerCase() === name.toLowerCase());
        if (!found) problems.push(`${id} answer ${status} header ${name} is not in the document`);
        else
          compare(
            id,
            `header ${name}`,
            header.schema as Node,
            (deref(document, found[1]).schema ?? {}) as Node,
          );
      }
    }
  }
  return problems;
}
