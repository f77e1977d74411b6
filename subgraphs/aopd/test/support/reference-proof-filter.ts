import type { StringConditionInput, TimestampConditionInput } from "@compliance-graph/filter";
import type { NewProofRow } from "../../src/database/database-schema.js";

/**
 * An in-memory statement of what a proof filter means, written independently of the compiler:
 * the property tests check that the database agrees with it for random filters and rows.
 */
export type ReferenceRow = Required<Pick<NewProofRow, "id" | "kind" | "status" | "customer_id" | "asset" | "address">> & {
  created_at: Date;
  comment: string | null;
  xpub: string | null;
  tx_id: string | null;
  deposit_address: string | null;
  due_at: Date | null;
};

/** LIKE by backtracking over the pattern, PostgreSQL's rules: `%`, `_`, backslash escapes. */
export function likeMatches(value: string, pattern: string, caseInsensitive: boolean): boolean {
  const fold = (text: string) => (caseInsensitive ? text.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32)) : text);
  const v = [...fold(value)];
  const tokens: { kind: "any" | "one" | "char"; char?: string }[] = [];
  const p = [...fold(pattern)];
  for (let i = 0; i < p.length; i += 1) {
    const c = p[i] as string;
    if (c === "\\") tokens.push({ kind: "char", char: p[++i] as string });
    else if (c === "%") tokens.push({ kind: "any" });
    else if (c === "_") tokens.push({ kind: "one" });
    else tokens.push({ kind: "char", char: c });
  }
  const memo = new Map<string, boolean>();
  const match = (vi: number, ti: number): boolean => {
    const key = `${vi},${ti}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (ti === tokens.length) result = vi === v.length;
    else {
      const token = tokens[ti]!;
      if (token.kind === "any") result = match(vi, ti + 1) || (vi < v.length && match(vi + 1, ti));
      else if (vi === v.length) result = false;
      else if (token.kind === "one") result = match(vi + 1, ti + 1);
      else result = v[vi] === token.char && match(vi + 1, ti + 1);
    }
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

function stringHolds(value: string | null, condition: StringConditionInput | null | undefined, uuid = false): boolean {
  if (!condition) return true;
  const norm = (text: string) => (uuid ? text.toLowerCase() : text);
  const v = value === null ? null : norm(value);
  if (condition.eq != null && (v === null || v !== norm(condition.eq))) return false;
  if (condition.ne != null && v !== null && v === norm(condition.ne)) return false;
  if (condition.in != null && (v === null || !condition.in.map(norm).includes(v))) return false;
  if (condition.notIn != null && v !== null && condition.notIn.map(norm).includes(v)) return false;
  if (condition.like != null && (value === null || !likeMatches(value, condition.like, false))) return false;
  if (condition.ilike != null && (value === null || !likeMatches(value, condition.ilike, true))) return false;
  if (condition.notIlike != null && (value === null || likeMatches(value, condition.notIlike, true))) return false;
  if (condition.isNull != null && (value === null) !== condition.isNull) return false;
  return true;
}

function timestampHolds(value: Date | null, condition: TimestampConditionInput | null | undefined): boolean {
  if (!condition) return true;
  const t = value?.getTime();
  const checks: [Date | null | undefined, (a: number, b: number) => boolean][] = [
    [condition.eq, (a, b) => a === b],
    [condition.lt, (a, b) => a < b],
    [condition.lte, (a, b) => a <= b],
    [condition.gt, (a, b) => a > b],
    [condition.gte, (a, b) => a >= b],
  ];
  for (const [bound, holds] of checks) if (bound != null && (t === undefined || !holds(t, bound.getTime()))) return false;
  if (condition.isNull != null && (value === null) !== condition.isNull) return false;
  return true;
}

export interface ReferenceFilter {
  is?: {
    any?: {
      id?: StringConditionInput;
      createdAt?: TimestampConditionInput;
      address?: StringConditionInput;
      customerId?: StringConditionInput;
      asset?: StringConditionInput;
      comment?: StringConditionInput;
      status?: string[];
    };
    signature?: { xpub?: { xpub?: StringConditionInput } };
    satoshi?: { txId?: StringConditionInput; depositAddress?: StringConditionInput; dueAt?: TimestampConditionInput };
  };
}

export function referenceMatches(row: ReferenceRow, filter: ReferenceFilter | undefined): boolean {
  const is = filter?.is;
  if (!is) return true;
  const any = is.any;
  if (any) {
    if (!stringHolds(row.id, any.id, true)) return false;
    if (!timestampHolds(row.created_at, any.createdAt)) return false;
    if (!stringHolds(row.address, any.address)) return false;
    if (!stringHolds(row.customer_id, any.customerId)) return false;
    if (!stringHolds(row.asset, any.asset)) return false;
    if (!stringHolds(row.comment, any.comment)) return false;
    if (any.status && !any.status.includes(row.status)) return false;
  }
  if (is.signature) {
    if (row.kind !== "signature") return false;
    if (is.signature.xpub && (row.xpub === null || !stringHolds(row.xpub, is.signature.xpub.xpub))) return false;
  }
  if (is.satoshi) {
    if (row.kind !== "satoshi") return false;
    if (!stringHolds(row.tx_id, is.satoshi.txId) || !stringHolds(row.deposit_address, is.satoshi.depositAddress)) return false;
    if (!timestampHolds(row.due_at, is.satoshi.dueAt)) return false;
  }
  return true;
}
