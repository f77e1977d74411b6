import type { ConsoleContext } from "../console-context.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError, wasAbandoned } from "../gateway-api.js";
import { supersedingReads } from "../superseding-reads.js";
import { addressCell, assetLabel, evidenceSummary } from "../proof-cells.js";
import { graphql } from "../graphql/graphql.js";
import { kindOf, proofFields, type Proof } from "../proof-fields.js";
import type { AopdProofSortField } from "../graphql/api-values.js";
import {
  filterOf,
  isOneOf,
  pageSizes,
  readListState,
  screeningStatuses,
  sortFields,
  statuses,
  writeListState,
  type ProofListState,
} from "../proof-list-state.js";
import { screeningBadge } from "../proof-screening.js";
import { formatDate, t, textOr } from "../translations.js";
import { assetDescription } from "./asset-picker.js";
import { exportControls } from "./export-controls.js";

const columns: { key: string; sort?: AopdProofSortField }[] = [
  { key: "address", sort: "ADDRESS" },
  { key: "id", sort: "ID" },
  { key: "status", sort: "STATUS" },
  { key: "screening", sort: "SCREENING" },
  { key: "kind" },
  { key: "asset", sort: "ASSET" },
  { key: "customer", sort: "CUSTOMER_ID" },
  { key: "evidence" },
  { key: "created", sort: "CREATED_AT" },
  { key: "due" },
];

function labelled(label: string, control: HTMLElement): HTMLElement {
  const id = fieldId("filter");
  control.id = id;
  return h("div", { class: "field" }, h("label", { for: id }, label), control);
}

function textInput(name: string, value: string, type = "text"): HTMLInputElement {
  return h("input", { name, type, value }) as HTMLInputElement;
}

function select(name: string, value: string, options: [string, string][]): HTMLSelectElement {
  const element = h(
    "select",
    { name },
    ...options.map(([optionValue, label]) => h("option", { value: optionValue, selected: optionValue === value }, label)),
  ) as HTMLSelectElement;
  return element;
}

/**
 * The filter form: one field per condition of the API, read back into the address bar on submit.
 * The conditions used most stand in one or two rows; the rest (id, comment, times, sort, page
 * size) fold under "More filters", so that at 1280x800 the table starts high on the screen.
 */
function filterForm(context: ConsoleContext, state: ProofListState): HTMLElement {
  const assets = [...context.assets.values()].sort((a, b) => a.name.localeCompare(b.name));
  const form = h(
    "form",
    { class: "filters", role: "search", "aria-label": t("filter.title") },
    h(
      "fieldset",
      { class: "statuses" },
      h("legend", {}, t("column.status")),
      ...statuses.map((status) =>
        h("label", {}, h("input", { type: "checkbox", name: "status", value: status, checked: state.statuses.includes(status) }), t(`status.${status}`)),
      ),
    ),
    h(
      "fieldset",
      { class: "statuses" },
      h("legend", {}, t("column.screening")),
      ...screeningStatuses.map((screening) =>
        h(
          "label",
          {},
          h("input", { type: "checkbox", name: "screening", value: screening, checked: state.screenings.includes(screening) }),
          // The badge's loud LISTED is for a row; beside the other choices it reads as a word (`screeningFilter.*`).
          t(`screeningFilter.${screening}`),
        ),
      ),
    ),
    labelled(
      t("column.kind"),
      select("kind", state.kind, [
        ["", t("filter.anyKind")],
        ...[...context.proofKinds.keys()].map((kind): [string, string] => [kind, textOr(`kind.${kind}`, kind)]),
      ]),
    ),
    labelled(
      t("column.asset"),
      select("asset", state.asset, [["", t("filter.anyAsset")], ...assets.map((asset): [string, string] => [asset.asset, assetDescription(asset)])]),
    ),
    labelled(t("column.customer"), textInput("customer", state.customer)),
    labelled(t("column.address"), textInput("address", state.address)),
    h(
      "details",
      // Open where the link sets one of them, so no condition in force is hidden.
      { class: "more", open: Boolean(state.id || state.comment || state.createdFrom || state.createdTo || state.customerMatch !== "exact") },
      h("summary", {}, t("filter.more")),
      h(
        "div",
        { class: "filters" },
        labelled(t("column.id"), textInput("id", state.id)),
        labelled(
          t("filter.customerMatch"),
          select("customerMatch", state.customerMatch, [
            ["exact", t("filter.exact")],
            ["pattern", t("filter.pattern")],
          ]),
        ),
        labelled(t("filter.comment"), textInput("comment", state.comment)),
        labelled(t("filter.createdFrom"), textInput("from", state.createdFrom, "datetime-local")),
        labelled(t("filter.createdTo"), textInput("to", state.createdTo, "datetime-local")),
        labelled(
          t("filter.sortBy"),
          select(
            "sortField",
            state.sortField,
            sortFields.map((field): [string, string] => [field, t(`sort.${field}`)]),
          ),
        ),
        labelled(
          t("filter.direction"),
          select("sortDirection", state.sortDirection, [
            ["ASC", t("sort.ASC")],
            ["DESC", t("sort.DESC")],
          ]),
        ),
        labelled(
          t("filter.pageSize"),
          select(
            "size",
            String(state.size),
            pageSizes.map((size): [string, string] => [String(size), String(size)]),
          ),
        ),
      ),
    ),
    h("div", { class: "actions" }, h("button", { type: "submit" }, t("filter.apply")), h("button", { type: "reset" }, t("filter.clear"))),
  ) as HTMLFormElement;
  const read = (): ProofListState => {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const sortField = text("sortField");
    return readListState(
      writeListState({
        statuses: data
          .getAll("status")
          .map(String)
          .filter((status) => isOneOf(statuses, status)),
        screenings: data
          .getAll("screening")
          .map(String)
          .filter((screening) => isOneOf(screeningStatuses, screening)),
        kind: text("kind") as ProofListState["kind"],
        asset: text("asset"),
        id: text("id"),
        customer: text("customer"),
        customerMatch: text("customerMatch") === "pattern" ? "pattern" : "exact",
        address: text("address"),
        comment: text("comment"),
        createdFrom: text("from"),
        createdTo: text("to"),
        sortField: isOneOf(sortFields, sortField) ? sortField : "CREATED_AT",
        sortDirection: text("sortDirection") === "ASC" ? "ASC" : "DESC",
        page: 1,
        size: Number(text("size")),
      }),
      [...context.proofKinds.keys()],
    );
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    context.navigate(`/console/${writeListState(read())}`);
  });
  form.addEventListener("reset", (event) => {
    event.preventDefault();
    context.navigate("/console/");
  });
  return form;
}

const overviewQuery = graphql(
  `
    query Overview($filter: AopdProofFilterInput, $sort: [AopdProofSortInput!], $offset: Int!, $limit: Int!) {
      aopd {
        proofsCount(filter: $filter)
        proofs(filter: $filter, sortOrder: $sort, offset: $offset, limit: $limit) {
          ...ProofFields
        }
      }
    }
  `,
  [proofFields],
);

/** The proofs overview: filters, the table, sorting by column, paging with the total, live updates, export. */
export async function proofsOverview(context: ConsoleContext, root: HTMLElement): Promise<void> {
  const state = readListState(location.search, [...context.proofKinds.keys()]);
  const filter = filterOf(state);
  const status = h("p", { role: "status", class: "summary" }, t("common.loading"));
  const tableHolder = h("div", { class: "table-holder" });
  root.replaceChildren(
    h("h1", {}, t("overview.title")),
    filterForm(context, state),
    ...(context.session.roles.has("proofs:export") ? [exportControls(context, filter)] : []),
    status,
    tableHolder,
  );

  const nextRead = supersedingReads(context.api);
  const load = async () => {
    const data = await nextRead().graphql(overviewQuery, {
      filter: filter ?? null,
      sort: [{ field: state.sortField, direction: state.sortDirection }],
      offset: (state.page - 1) * state.size,
      limit: state.size,
    });
    const total = data.aopd?.proofsCount ?? 0;
    const proofs: Proof[] = data.aopd?.proofs ?? [];
    const pages = Math.max(1, Math.ceil(total / state.size));
    // A page past the last (an old link, proofs gone from the filter) shows the last one, not "page 999 of 1".
    if (state.page > pages) return context.navigate(`/console/${writeListState({ ...state, page: pages })}`, true);
    status.textContent = t("overview.summary", { count: total, page: state.page, pages });
    tableHolder.replaceChildren(proofTable(context, state, proofs), pager(context, state, pages));
  };
  try {
    await load();
  } catch (error) {
    if (wasAbandoned(error)) return;
    status.textContent = error instanceof ApiError ? t("common.refused", { message: error.message }) : t("common.failed");
    return;
  }
  // A proof created or changed anywhere: the page is read again, so its order and total stay right.
  let pending: ReturnType<typeof setTimeout> | undefined;
  context.onLeave(
    context.live.listen(() => {
      clearTimeout(pending);
      pending = setTimeout(() => void load().catch(() => undefined), 200);
    }),
  );
  context.onLeave(() => clearTimeout(pending));
}

function proofTable(context: ConsoleContext, state: ProofListState, proofs: Proof[]): HTMLElement {
  const header = h(
    "tr",
    {},
    ...columns.map(({ key, sort }) => {
      const label = t(`column.${key}`);
      if (!sort) return h("th", { scope: "col" }, label);
      const active = state.sortField === sort;
      const next = active && state.sortDirection === "ASC" ? "DESC" : "ASC";
      return h(
        "th",
        { scope: "col", "aria-sort": active ? (state.sortDirection === "ASC" ? "ascending" : "descending") : undefined },
        h(
          "button",
          {
            type: "button",
            class: "sort",
            onclick: () => context.navigate(`/console/${writeListState({ ...state, sortField: sort, sortDirection: next, page: 1 })}`),
          },
          label,
          active ? (state.sortDirection === "ASC" ? " ▲" : " ▼") : "",
        ),
      );
    }),
  );
  const rows = proofs.map((proof) =>
    h(
      "tr",
      { "data-status": proof.status, "data-screening": proof.screening.status },
      h("td", { class: "mono" }, addressCell(context, proof)),
      h("td", { class: "mono" }, h("a", { href: `/console/proofs/${encodeURIComponent(proof.id)}`, "data-route": "" }, proof.id)),
      h("td", {}, t(`status.${proof.status}`)),
      h("td", {}, screeningBadge(proof.screening)),
      h("td", {}, t(`kind.${kindOf(proof)}`)),
      h("td", {}, assetLabel(context, proof.asset)),
      h("td", {}, proof.customerId),
      h("td", {}, evidenceSummary(context, proof)),
      h("td", {}, formatDate(proof.createdAt)),
      h("td", {}, formatDate(proof.dueAt)),
    ),
  );
  return h(
    "table",
    { "aria-label": t("overview.tableLabel") },
    h("thead", {}, header),
    h("tbody", {}, ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: String(columns.length) }, t("overview.empty")))])),
  );
}

function pager(context: ConsoleContext, state: ProofListState, pages: number): HTMLElement {
  const go = (page: number) => context.navigate(`/console/${writeListState({ ...state, page })}`);
  return h(
    "nav",
    { class: "pager", "aria-label": t("pager.label") },
    h("button", { type: "button", disabled: state.page <= 1, onclick: () => go(state.page - 1) }, t("pager.previous")),
    h("span", {}, t("pager.position", { page: state.page, pages })),
    h("button", { type: "button", disabled: state.page >= pages, onclick: () => go(state.page + 1) }, t("pager.next")),
  );
}
