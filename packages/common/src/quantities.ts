/** Kubernetes resource quantities (`250m`, `1.5Gi`, `2000000n`, `1e3`) as plain numbers of the base unit. */
const suffixes: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 1024,
  Mi: 1024 ** 2,
  Gi: 1024 ** 3,
  Ti: 1024 ** 4,
  Pi: 1024 ** 5,
  Ei: 1024 ** 6,
};

const grammar = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei))?$/;

/** The quantity in its base unit (cores, bytes), or undefined when the text is not a quantity. */
export function parseQuantity(text: string): number | undefined {
  const match = grammar.exec(text.trim());
  if (!match) return undefined;
  const [, number, exponent, suffix] = match;
  if (exponent) return Number(`${number}${exponent}`);
  return Number(number) * (suffixes[suffix ?? ''] ?? 1);
}
