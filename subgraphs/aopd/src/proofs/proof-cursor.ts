import { UserInputError } from "@compliance-graph/errors";
import type { OrderTerm, SortColumn } from "./proof-sort.js";

/** A value of one sort column, as the table holds it. */
export type SortValue = string | Date | null;

/** The values a cursor carries: one per term of the order it was read in, the id last. */
export type CursorValues = readonly SortValue[];

/** A proof's sort columns as the API object holds them. */
export interface SortableProof {
  id: string;
  createdAt: Date;
  address: string | null;
  customerId: string;
  asset: string;
  comment: string | null;
  status: string;
  screening?: { status: string };
}

const valueOf: Record<SortColumn, (proof: SortableProof) => SortValue> = {
  id: (proof) => proof.id,
  created_at: (proof) => proof.createdAt,
  address: (proof) => proof.address,
  customer_id: (proof) => proof.customerId,
  asset: (proof) => proof.asset,
  comment: (proof) => proof.comment,
  status: (proof) => proof.status,
  screening_status: (proof) => proof.screening?.status ?? "NOT_SCREENED",
};

/** A comment can be 2,000 characters; with the other columns and base64 a cursor stays under this. */
const maxCursorLength = 8_192;

function orderSignature(terms: readonly OrderTerm[]): string {
  return terms.map((term) => `${term.column} ${term.direction}`).join(",");
}

/**
 * A proof's position in a list read in `terms` order: the list's order and the proof's value of
 * each sort column, base64url-encoded. It carries the values rather than the id so that the next
 * page starts where the last one ended even when that proof has changed since, and it is opaque so
 * that clients pass it back rather than build it.
 */
export function encodeProofCursor(proof: SortableProof, terms: readonly OrderTerm[]): string {
  const values = terms.map((term) => {
    const value = valueOf[term.column](proof);
    return value instanceof Date ? value.toISOString() : value;
  });
  return Buffer.from(JSON.stringify({ o: orderSignature(terms), v: values }), "utf8").toString("base64url");
}

/** Columns a proof may leave empty; a cursor's null in any other is forged. */
const nullableColumns: ReadonlySet<SortColumn> = new Set(["address", "comment"]);

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cursor value as its column holds it, or what is wrong with it (for the error message). */
function checkedValue(column: SortColumn, value: unknown): { value: SortValue } | { problem: string } {
  if (value === null) return nullableColumns.has(column) ? { value: null } : { problem: `its ${column} is null` };
  if (typeof value !== "string") return { problem: `its ${column} is not a string` };
  // PostgreSQL text cannot hold a NUL: the query would fail inside the database.
  if (value.includes("\u0000")) return { problem: `its ${column} holds a NUL character` };
  if (column === "id") return uuidPattern.test(value) ? { value } : { problem: "its id is not a UUID" };
  if (column !== "created_at") return { value };
  const date = new Date(value);
  // Years 1 to 9999 UTC, as the DateTime scalar: JavaScript holds dates PostgreSQL cannot.
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) return { problem: "its created_at is not a time in years 0001 to 9999" };
  return { value: date };
}

/**
 * The values of a cursor read in `terms` order. A cursor that is not ours, or was read in another
 * order, is a user error naming `after`: its values would mean nothing in this order. Cursors are
 * only base64url JSON, so anyone can forge one: every value is checked against what its column
 * holds (a UUID id, a time PostgreSQL can store, text without NUL, null only where a proof may
 * leave the column empty), so that a forged value is refused here rather than by the database.
 */
export function decodeProofCursor(cursor: string, terms: readonly OrderTerm[]): CursorValues {
  const malformed = (detail?: string) =>
    new UserInputError("after", `is not a cursor of \`proofs\`${detail ? ` (${detail})` : ""}: pass the \`cursor\` of the last proof of the previous page.`);
  if (cursor.length === 0 || cursor.length > maxCursorLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw malformed();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw malformed();
  }
  const { o, v } = (parsed ?? {}) as { o?: unknown; v?: unknown };
  if (typeof o !== "string" || !Array.isArray(v) || v.length !== terms.length) throw malformed();
  if (o !== orderSignature(terms)) {
    throw new UserInputError("after", "was read with another sortOrder; pass the same sortOrder (and filter) the cursor's page was read with.");
  }
  return terms.map((term, index) => {
    const checked = checkedValue(term.column, v[index]);
    if ("problem" in checked) throw malformed(checked.problem);
    return checked.value;
  });
}
