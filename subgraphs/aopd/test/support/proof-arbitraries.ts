import fc from "fast-check";
import type { ReferenceFilter, ReferenceRow } from "./reference-proof-filter.js";

// A small alphabet with the characters that make patterns interesting: wildcards, the escape,
// mixed case and a character outside ASCII.
const text = fc.string({ unit: fc.constantFrom("a", "A", "b", "B", "%", "_", "\\", "x", "ä", "'"), maxLength: 5 });
const nonEmptyText = fc.string({ unit: fc.constantFrom("a", "A", "b", "B", "x", "_"), minLength: 1, maxLength: 4 });
const instants = [0, 1, 2, 3, 4].map((day) => new Date(Date.UTC(2026, 0, 1 + day, 12, 0, 0, 0)));
const instant = fc.constantFrom(...instants);
const statuses = ["PENDING", "SUBMITTED", "VERIFIED", "FAILED", "EXPIRED"] as const;
const assets = ["DTI4H95J0R2X", "DTIX9J9K872S", "DTI20J63Z4N3"];

export const proofRow: fc.Arbitrary<ReferenceRow> = fc
  .record({
    id: fc.uuid({ version: 4 }),
    kind: fc.constantFrom("signature" as const, "satoshi" as const),
    status: fc.constantFrom(...statuses),
    customer_id: nonEmptyText,
    asset: fc.constantFrom(...assets),
    address: text,
    comment: fc.option(text, { nil: null }),
    xpub: fc.option(text, { nil: null }),
    tx_id: fc.option(text, { nil: null }),
    deposit_address: text,
    created_at: instant,
    due_at: fc.option(instant, { nil: null }),
  })
  .map((row) => (row.kind === "signature" ? { ...row, tx_id: null, deposit_address: null } : { ...row, xpub: null }));

export const proofRows = fc.uniqueArray(proofRow, { maxLength: 25, selector: (row) => row.id });

/** A valid pattern: never ends in a lone escape (that is a separate, tested error). */
const pattern = text.filter((p) => {
  let escaped = false;
  for (const c of p) escaped = !escaped && c === "\\";
  return !escaped;
});

/** One operator of a string condition: filters built from a few of these stay selective but not empty. */
const stringAtom = fc.oneof(
  text.map((eq) => ({ eq })),
  text.map((ne) => ({ ne })),
  fc.array(text, { maxLength: 3 }).map((values) => ({ in: values })),
  fc.array(text, { maxLength: 3 }).map((values) => ({ notIn: values })),
  pattern.map((like) => ({ like })),
  pattern.map((ilike) => ({ ilike })),
  pattern.map((ilike) => ({ ilike: `%${ilike}%` })),
  pattern.map((notIlike) => ({ notIlike })),
  fc.boolean().map((isNull) => ({ isNull })),
);

const timestampAtom = fc.oneof(
  ...(["eq", "lt", "lte", "gt", "gte"] as const).map((operator) => instant.map((value) => ({ [operator]: value }))),
  fc.boolean().map((isNull) => ({ isNull })),
);

type Atom = ReferenceFilter;

function idAtom(ids: string[]): fc.Arbitrary<Atom> {
  const id = ids.length > 0 ? fc.constantFrom(...ids) : fc.uuid({ version: 4 });
  return fc
    .oneof(
      id.map((eq) => ({ eq })),
      id.map((eq) => ({ eq: eq.toUpperCase() })),
      text.map((eq) => ({ eq })),
      id.map((ilike) => ({ ilike })),
      id.map((value) => ({ ilike: value.toUpperCase() })),
      id.map((value) => ({ like: value.toUpperCase() })),
      id.map((value) => ({ ilike: `%${value.slice(3, 6)}%` })),
      fc.array(id, { maxLength: 3 }).map((values) => ({ in: values })),
      fc.array(id, { maxLength: 3 }).map((values) => ({ notIn: values })),
      id.map((ne) => ({ ne })),
    )
    .map((condition) => ({ is: { any: { id: condition } } }));
}

const anyAtom: fc.Arbitrary<Atom> = fc.oneof(
  timestampAtom.map((createdAt) => ({ is: { any: { createdAt } } })),
  stringAtom.map((address) => ({ is: { any: { address } } })),
  stringAtom.map((customerId) => ({ is: { any: { customerId } } })),
  stringAtom.map((asset) => ({ is: { any: { asset } } })),
  fc.constantFrom("DTI4H95J0R2X", "dti4h95j0r2x", "DTI%").map((ilike) => ({ is: { any: { asset: { ilike } } } })),
  stringAtom.map((comment) => ({ is: { any: { comment } } })),
  fc.uniqueArray(fc.constantFrom(...statuses), { minLength: 1, maxLength: 3 }).map((status) => ({ is: { any: { status: [...status] } } })),
  fc.constant({ is: { signature: {} } }),
  fc.constant({ is: { signature: { xpub: {} } } }),
  stringAtom.map((xpub) => ({ is: { signature: { xpub: { xpub } } } })),
  fc.constant({ is: { satoshi: {} } }),
  stringAtom.map((txId) => ({ is: { satoshi: { txId } } })),
  stringAtom.map((depositAddress) => ({ is: { satoshi: { depositAddress } } })),
  timestampAtom.map((dueAt) => ({ is: { satoshi: { dueAt } } })),
);

/** Deep merge of filter atoms; two atoms on the same operator keep the later one. */
function merge(target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    target[key] =
      value && typeof value === "object" && !Array.isArray(value) && !(value instanceof Date) && existing && typeof existing === "object"
        ? merge({ ...(existing as Record<string, unknown>) }, value as Record<string, unknown>)
        : value;
  }
  return target;
}

/** Random filters over every branch and operator, one to three conditions at a time; ids come from the rows so that equality can hit. */
export function proofFilter(ids: string[]): fc.Arbitrary<ReferenceFilter> {
  return fc
    .array(fc.oneof({ weight: 1, arbitrary: idAtom(ids) }, { weight: 6, arbitrary: anyAtom }), { minLength: 1, maxLength: 3 })
    .map((atoms) => atoms.reduce<Record<string, unknown>>((filter, atom) => merge(filter, atom as Record<string, unknown>), {}) as ReferenceFilter);
}

export const sortOrder = fc.array(
  fc.record({
    field: fc.constantFrom("ID", "CREATED_AT", "ADDRESS", "CUSTOMER_ID", "ASSET", "COMMENT", "STATUS" as const),
    direction: fc.constantFrom("ASC", "DESC" as const),
  }),
  { maxLength: 3 },
);
