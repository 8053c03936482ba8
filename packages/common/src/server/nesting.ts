/**
 * How deep a caller's JSON or YAML may nest (ADR 0046). Everything that walks a parsed body recursively
 * (JSON.stringify, redaction, YAML conversion) then stays far from the stack's end, which 5 000 levels reached;
 * real manifests, CustomResourceDefinition schemas included, nest far less.
 */
export const maxNestingDepth = 200;
