import type { ConsoleContext } from "../console-context.js";
import { h } from "@compliance-graph/web-dom";
import { ApiError, wasAbandoned } from "../gateway-api.js";
import { supersedingReads } from "../superseding-reads.js";
import { addressCell, assetLabel, evidenceSummary } from "../proof-cells.js";
import { graphql, type ResultOf } from "../graphql/graphql.js";
import { kindOf, proofFields, type Flattened } from "../proof-fields.js";
import { screeningCellWithEntry } from "../proof-screening.js";
import { formatDate, t } from "../translations.js";

/** Whether a second officer is awaited (four eyes), and for which outcome: the queue says so per row. */
const proposalFields = graphql(`
  fragment QueueProposalFields on AopdProof {
    ... on AopdSignatureProof {
      proposal {
        outcome
      }
    }
    ... on AopdSatoshiProof {
      proposal {
        outcome
      }
    }
    ... on AopdMediaProof {
      proposal {
        outcome
      }
    }
  }
`);

const queueQuery = graphql(
  `
    query Queue($filter: AopdProofFilterInput, $limit: Int!) {
      aopd {
        proofsCount(filter: $filter)
        proofs(filter: $filter, sortOrder: [{ field: CREATED_AT, direction: ASC }], limit: $limit) {
          ...ProofFields
          ...QueueProposalFields
        }
      }
    }
  `,
  [proofFields, proposalFields],
);

type QueueProof = NonNullable<ResultOf<typeof queueQuery>["aopd"]>["proofs"][number];

/** Most proofs the queue lists at once, oldest first. @default 200 */
const queueLimit = 200;

/** SUBMITTED proofs (the kinds a person decides: `configuration.proofKinds`), oldest first, kept current by live events. */
export async function reviewQueue(context: ConsoleContext, root: HTMLElement): Promise<void> {
  const status = h("p", { role: "status" }, t("common.loading"));
  const holder = h("div", { class: "table-holder" });
  root.replaceChildren(h("h1", {}, t("queue.title")), status, holder);
  const nextRead = supersedingReads(context.api);
  const load = async () => {
    const answer = await nextRead().graphql(queueQuery, { filter: { is: { any: { status: ["SUBMITTED"] } } }, limit: queueLimit });
    // Each kind's own fields read as optional (a proposal only where the kind has four eyes).
    const proofs: Flattened<QueueProof>[] = answer.aopd?.proofs ?? [];
    const data = { aopd: { proofsCount: answer.aopd?.proofsCount ?? 0, proofs } };
    status.textContent = t("queue.count", { count: data.aopd.proofsCount });
    holder.replaceChildren(
      data.aopd.proofs.length
        ? h(
            "table",
            { "aria-label": t("queue.title") },
            h(
              "thead",
              {},
              h(
                "tr",
                {},
                ...["id", "kind", "state", "screening", "address", "asset", "customer", "evidence", "created"].map((key) =>
                  h("th", { scope: "col" }, t(`column.${key}`)),
                ),
              ),
            ),
            h(
              "tbody",
              {},
              ...data.aopd.proofs.map((proof) =>
                h(
                  "tr",
                  { "data-screening": proof.screening.status },
                  h("td", { class: "mono" }, h("a", { href: `/console/proofs/${encodeURIComponent(proof.id)}`, "data-route": "" }, proof.id)),
                  h("td", {}, t(`kind.${kindOf(proof)}`)),
                  h("td", {}, proof.proposal ? `${t(`status.${proof.proposal.outcome ?? ""}`)}: ${t("queue.proposal")}` : t("status.SUBMITTED")),
                  h("td", {}, screeningCellWithEntry(proof.screening)),
                  h("td", { class: "mono" }, addressCell(context, proof)),
                  h("td", {}, assetLabel(context, proof.asset)),
                  h("td", {}, proof.customerId),
                  h("td", {}, evidenceSummary(context, proof)),
                  h("td", {}, formatDate(proof.createdAt)),
                ),
              ),
            ),
          )
        : h("p", {}, t("queue.empty")),
    );
  };
  try {
    await load();
  } catch (error) {
    if (wasAbandoned(error)) return;
    status.textContent = error instanceof ApiError ? t("common.refused", { message: error.message }) : t("common.failed");
    return;
  }
  context.onLeave(context.live.listen(() => void load().catch(() => undefined)));
}
