import { AopdProofSortField, AopdProofStatus, AopdScreeningStatus, type AopdSortDirection } from "./graphql/api-values.js";
import type { graphql } from "./graphql/graphql.js";
import type { ProofKind } from "./proof-fields.js";

/** The API's filter of proofs (`AopdProofFilterInput`), as the schema types it. */
export type ProofFilter = ReturnType<typeof graphql.scalar<"AopdProofFilterInput">>;

/**
 * The overview's filter, sort and page as the address bar carries them, so a link can be shared
 * and the back button works: `?status=SUBMITTED,VERIFIED&screening=LISTED&kind=media&customer=C-1
 * &customerMatch=pattern&sort=CREATED_AT:DESC&page=2&size=50`.
 */
export interface ProofListState {
  statuses: AopdProofStatus[];
  /** Screening results to show (`CLEAR`, `LISTED`, `NOT_SCREENED`); empty shows every proof. */
  screenings: AopdScreeningStatus[];
  kind: ProofKind | "";
  asset: string;
  id: string;
  customer: string;
  customerMatch: "exact" | "pattern";
  address: string;
  comment: string;
  createdFrom: string;
  createdTo: string;
  sortField: AopdProofSortField;
  sortDirection: AopdSortDirection;
  page: number;
  size: number;
}

/** The statuses, screening results and sort fields the form offers: the API's enums, so one added there is offered here. */
export const statuses: readonly AopdProofStatus[] = AopdProofStatus;
/** LISTED first: the result an officer looks for. */
export const screeningStatuses: readonly AopdScreeningStatus[] = ["LISTED", ...AopdScreeningStatus.filter((status) => status !== "LISTED")];
/** The default order (newest first by creation) first. */
export const sortFields: readonly AopdProofSortField[] = ["CREATED_AT", ...AopdProofSortField.filter((field) => field !== "CREATED_AT")];

/** Whether `value` (from the address bar or a form) is one of `values`. */
export const isOneOf = <Value extends string>(values: readonly Value[], value: string | undefined): value is Value => values.includes(value as Value);
export const pageSizes = [25, 50, 100, 200];

/** The state the address bar (`search`) names; a kind counts only when it is one of `kinds` (the API's `configuration.proofKinds`). */
export function readListState(search: string, kinds: readonly ProofKind[]): ProofListState {
  const params = new URLSearchParams(search);
  const [sortField, sortDirection] = (params.get("sort") ?? "CREATED_AT:DESC").split(":");
  const kind = params.get("kind") ?? "";
  const size = Number(params.get("size") ?? 50);
  return {
    statuses: (params.get("status") ?? "").split(",").filter((status) => isOneOf(statuses, status)),
    screenings: (params.get("screening") ?? "").split(",").filter((screening) => isOneOf(screeningStatuses, screening)),
    kind: isOneOf(kinds, kind) ? kind : "",
    asset: params.get("asset") ?? "",
    id: params.get("id") ?? "",
    customer: params.get("customer") ?? "",
    customerMatch: params.get("customerMatch") === "pattern" ? "pattern" : "exact",
    address: params.get("address") ?? "",
    comment: params.get("comment") ?? "",
    createdFrom: params.get("from") ?? "",
    createdTo: params.get("to") ?? "",
    sortField: isOneOf(sortFields, sortField) ? sortField : "CREATED_AT",
    sortDirection: sortDirection === "ASC" ? "ASC" : "DESC",
    page: Math.max(1, Math.floor(Number(params.get("page") ?? 1)) || 1),
    size: pageSizes.includes(size) ? size : 50,
  };
}

export function writeListState(state: ProofListState): string {
  const params = new URLSearchParams();
  if (state.statuses.length) params.set("status", state.statuses.join(","));
  if (state.screenings.length) params.set("screening", state.screenings.join(","));
  if (state.kind) params.set("kind", state.kind);
  if (state.asset) params.set("asset", state.asset);
  if (state.id) params.set("id", state.id);
  if (state.customer) params.set("customer", state.customer);
  if (state.customer && state.customerMatch === "pattern") params.set("customerMatch", "pattern");
  if (state.address) params.set("address", state.address);
  if (state.comment) params.set("comment", state.comment);
  if (state.createdFrom) params.set("from", state.createdFrom);
  if (state.createdTo) params.set("to", state.createdTo);
  if (state.sortField !== "CREATED_AT" || state.sortDirection !== "DESC") params.set("sort", `${state.sortField}:${state.sortDirection}`);
  if (state.page > 1) params.set("page", String(state.page));
  if (state.size !== 50) params.set("size", String(state.size));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** The API's `AopdProofFilterInput` for the state; undefined matches every proof. */
export function filterOf(state: ProofListState): ProofFilter | undefined {
  const any: NonNullable<NonNullable<ProofFilter["is"]>["any"]> = {};
  if (state.statuses.length) any.status = state.statuses;
  if (state.screenings.length) any.screening = { status: state.screenings };
  if (state.asset) any.asset = { eq: state.asset };
  if (state.id) any.id = { ilike: state.id };
  if (state.customer) any.customerId = state.customerMatch === "pattern" ? { ilike: state.customer } : { eq: state.customer };
  if (state.address) any.address = { ilike: state.address };
  if (state.comment) any.comment = { ilike: state.comment };
  const createdAt: Record<string, string> = {};
  if (state.createdFrom) createdAt.gte = new Date(state.createdFrom).toISOString();
  if (state.createdTo) createdAt.lt = new Date(state.createdTo).toISOString();
  if (Object.keys(createdAt).length) any.createdAt = createdAt;
  const is: NonNullable<ProofFilter["is"]> = {};
  if (Object.keys(any).length) is.any = any;
  if (state.kind) is[state.kind] = {};
  return Object.keys(is).length ? { is } : undefined;
}
