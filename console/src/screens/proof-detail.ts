import { explorerUrl } from "../console-config.js";
import type { ConsoleContext } from "../console-context.js";
import { decideRole, reasonLabel } from "../decide-proof.js";
import { h } from "@compliance-graph/web-dom";
import { ApiError, wasAbandoned } from "../gateway-api.js";
import { supersedingReads } from "../superseding-reads.js";
import { addressCell, assetLabel, wholeUnits } from "../proof-cells.js";
import { AopdAssessment, type AopdProofStatus } from "../graphql/api-values.js";
import { graphql, type ResultOf } from "../graphql/graphql.js";
import { decisionFields, kindOf, proofFields, type Flattened, type Proof, type ProofDecision } from "../proof-fields.js";
import { formatDate, formatNumber, t, textOr } from "../translations.js";
import { legalHoldFields, legalHoldRole } from "../legal-hold.js";
import { listedNotice, screeningBadge, screeningHistory, screeningRows, type ScreeningChangeRecord } from "../proof-screening.js";
import { auditEntryFields, auditHistory, auditRole, type AuditEntry } from "./audit-history.js";
import { decisionForm } from "./decision-form.js";
import { legalHoldForm } from "./legal-hold-form.js";
import { mediaViewer } from "./media-viewer.js";
import { newPortalLink, newPortalLinkRole } from "./new-portal-link.js";
import { proofReceipt, receiptRole } from "./proof-receipt.js";
import { proposalSettlement } from "./proposal-settlement.js";
import { reopenForm } from "./reopen-form.js";

type Row = [string, Node | string | null | undefined];

/**
 * The statuses a decision gives a proof: the API's assessments (`AopdAssessment`). Typed as
 * statuses, so an assessment the schema stops naming as a status fails the type check.
 */
const decidedStatuses: readonly AopdProofStatus[] = AopdAssessment;
const isDecided = (status: AopdProofStatus) => decidedStatuses.includes(status);

/** What the detail reads beside the proof's fields: its legal hold and the commercial provider's screening (both proofs:read). */
const holdAndProviderFields = graphql(
  `
    fragment HoldAndProviderFields on AopdProof {
      legalHold {
        ...LegalHoldFields
      }
      providerScreening {
        provider
        status
        screenedAt
        identifications {
          category
          name
        }
      }
    }
  `,
  [legalHoldFields],
);

/** A proof event as the detail reads it: the history of users without audit:read, and the screening's changes. */
const detailEventFields = graphql(`
  fragment DetailEventFields on AopdProofEvent {
    change
    recordedAt
    proof {
      status
      screening {
        status
        listVersion
      }
    }
  }
`);

/** The detail for users without audit:read. */
const detailQuery = graphql(
  `
    query Detail($filter: AopdProofFilterInput) {
      aopd {
        proofs(filter: $filter, limit: 1) {
          ...ProofFields
          ...ProofDecisionFields
          ...HoldAndProviderFields
        }
        proofEvents(filter: $filter, limit: 100) {
          events {
            ...DetailEventFields
          }
        }
      }
    }
  `,
  [proofFields, decisionFields, holdAndProviderFields, detailEventFields],
);

/** The same with the proof's `history` from the audit trail: asked for only with audit:read, as the gateway refuses the whole query otherwise. */
const detailWithHistoryQuery = graphql(
  `
    query DetailWithHistory($filter: AopdProofFilterInput) {
      aopd {
        proofs(filter: $filter, limit: 1) {
          ...ProofFields
          ...ProofDecisionFields
          ...HoldAndProviderFields
          history {
            ...AuditEntryFields
          }
        }
        proofEvents(filter: $filter, limit: 100) {
          events {
            ...DetailEventFields
          }
        }
      }
    }
  `,
  [proofFields, decisionFields, holdAndProviderFields, detailEventFields, auditEntryFields],
);

/** One proof as the detail reads it; `history` only for users with audit:read. */
type DetailProof = Flattened<NonNullable<ResultOf<typeof detailQuery>["aopd"]>["proofs"][number]> & { history?: AuditEntry[] };

/** A proof event as the detail reads it. */
type DetailEvent = ResultOf<typeof detailEventFields>;

/** A card of facts; those without a value are left out, and a card left with none says `empty` ("none yet") rather than nothing. */
function facts(label: string, rows: Row[], empty = t("history.none")): HTMLElement {
  const shown = rows.filter(([, value]) => value !== null && value !== undefined && value !== "");
  return h(
    "section",
    { "aria-label": label },
    h("h2", {}, label),
    shown.length ? h("dl", {}, ...shown.flatMap(([key, value]) => [h("dt", {}, key), h("dd", {}, value as Node | string)])) : h("p", { class: "empty" }, empty),
  );
}

/** Who decided, as a person reads it: the username where the token named one, the subject beside it. */
function deciderLabel(decision: ProofDecision): string {
  const { decider } = decision;
  if (decider.system) return t("detail.system", { subject: decider.subject });
  return decider.username ? `${decider.username} (${decider.subject}, ${decider.client})` : `${decider.subject} (${decider.client})`;
}

function decisionFacts(label: string, decision: ProofDecision): HTMLElement {
  return facts(label, [
    [t("detail.outcome"), decision.outcome ? t(`status.${decision.outcome}`) : t(`action.${decision.action}`)],
    [t("detail.decidedBy"), deciderLabel(decision)],
    [t("detail.decidedAt"), formatDate(decision.decidedAt)],
    [t("decide.reason"), decision.reason ? reasonLabel(decision.reason) : null],
    [t("decide.reasonText"), decision.reasonText],
    [t("detail.decisionComment"), decision.comment],
  ]);
}

/** What the transaction paid the deposit address, as the chain check found it: whole units (with the decimals it knew) and the lowest unit. */
function amountReceived(context: ConsoleContext, proof: Proof): string {
  const symbol = context.assets.get(proof.asset)?.symbol ?? "";
  const whole = proof.amountReceivedUnits ? `${proof.amountReceivedUnits} ${symbol}`.trim() : "–";
  return `${whole} (${proof.amountReceived} ${t("detail.lowestUnit")})`;
}

/** The addresses that paid the deposit address, each linked to the network's explorer where one is configured. */
function senderList(context: ConsoleContext, network: string | null | undefined, senders: string[]): HTMLElement {
  return h(
    "ul",
    { class: "plain" },
    ...senders.map((sender) => {
      const href = explorerUrl(context.config, network, "address", sender);
      return h("li", {}, href ? h("a", { href, target: "_blank", rel: "noopener noreferrer" }, sender) : sender);
    }),
  );
}

/** One proof: everything it rests on per kind, its file for media proofs, its history, and the decision where one is due. */
export async function proofDetail(context: ConsoleContext, root: HTMLElement, id: string): Promise<void> {
  const status = h("p", { role: "status" }, t("common.loading"));
  root.replaceChildren(h("h1", {}, t("detail.title", { id })), status);
  // The audit trail is asked for only with audit:read: the gateway refuses a whole query naming `history` without it.
  const readsAudit = context.session.roles.has(auditRole);
  const nextRead = supersedingReads(context.api);
  const read = async () => {
    const api = nextRead();
    const variables = { filter: { is: { any: { id: { eq: id } } } } };
    const data = readsAudit ? await api.graphql(detailWithHistoryQuery, variables) : await api.graphql(detailQuery, variables);
    const proofs: DetailProof[] = data.aopd?.proofs ?? [];
    return { proofs, proofEvents: data.aopd?.proofEvents ?? { events: [] } };
  };
  let shown: string | undefined;
  const render = async () => {
    const { proofs, proofEvents } = await read();
    const proof = proofs[0];
    if (!proof) {
      status.textContent = t("detail.notFound");
      return;
    }
    shown = `${proof.status} ${proof.screening.status}`;
    const kind = kindOf(proof);
    const notice = listedNotice(proof);
    const sections: Node[] = [
      ...(notice ? [notice] : []),
      facts(t("detail.overview"), [
        [t("column.status"), t(`status.${proof.status}`)],
        [t("column.screening"), screeningBadge(proof.screening)],
        [
          t("legalHold.label"),
          proof.legalHold ? t("legalHold.since", { since: formatDate(proof.legalHold.since), reason: proof.legalHold.reason }) : t("legalHold.none"),
        ],
        [t("column.kind"), t(`kind.${kind}`)],
        [t("column.asset"), `${assetLabel(context, proof.asset)} · ${proof.asset}`],
        [t("column.address"), addressCell(context, proof)],
        [t("column.customer"), proof.customerId],
        [t("filter.comment"), proof.comment],
        [t("column.created"), formatDate(proof.createdAt)],
        [t("detail.updated"), formatDate(proof.updatedAt)],
        [t("column.due"), formatDate(proof.dueAt)],
      ]),
    ];
    if (kind === "signature") {
      sections.push(
        facts(t("detail.evidence"), [
          [t("detail.message"), proof.message],
          [t("detail.signature"), proof.signature],
          [t("detail.format"), proof.format],
          [t("detail.signatureScheme"), proof.signatureScheme ? textOr(`scheme.${proof.signatureScheme}`, proof.signatureScheme) : null],
          // ERC-1271: the wallet contract's answer holds at the block it was asked at, where it can be asked again.
          [
            t("detail.contractCheckBlock"),
            proof.contractCheckBlockHeight === null || proof.contractCheckBlockHeight === undefined ? null : formatNumber(proof.contractCheckBlockHeight),
          ],
          [t("detail.xpub"), proof.xpub],
          [t("detail.leftForReview"), proof.leftForReview ? t(`review.${proof.leftForReview}`) : null],
        ]),
      );
    } else if (kind === "satoshi") {
      const network = context.assets.get(proof.asset)?.network;
      const txHref = proof.txId ? explorerUrl(context.config, network, "tx", proof.txId) : undefined;
      sections.push(
        facts(t("detail.evidence"), [
          [t("detail.depositAddress"), proof.depositAddress],
          [t("detail.senderAddress"), proof.senderAddress],
          [t("detail.amount"), `${wholeUnits(context, proof.asset, proof.amount ?? "0") ?? "–"} (${proof.amount} ${t("detail.lowestUnit")})`],
          [
            t("detail.txId"),
            proof.txId ? (txHref ? h("a", { href: txHref, target: "_blank", rel: "noopener noreferrer" }, proof.txId) : proof.txId) : t("detail.noTx"),
          ],
          [t("detail.block"), proof.blockHeight === null || proof.blockHeight === undefined ? null : formatNumber(proof.blockHeight)],
          [t("detail.blockHash"), proof.blockHash],
          [t("detail.confirmations"), proof.confirmations === null || proof.confirmations === undefined ? null : formatNumber(proof.confirmations)],
          [t("detail.amountReceived"), proof.amountReceived ? amountReceived(context, proof) : null],
          [t("detail.transactionSenders"), proof.transactionSenders?.length ? senderList(context, network, proof.transactionSenders) : null],
          [t("detail.failureReason"), proof.failureReason],
        ]),
      );
    } else {
      sections.push(
        facts(
          t("detail.evidence"),
          [
            [t("detail.contentType"), proof.contentType],
            [t("detail.byteSize"), proof.byteSize === null || proof.byteSize === undefined ? null : formatNumber(proof.byteSize)],
            [t("detail.uploadedAt"), formatDate(proof.uploadedAt)],
            [t("detail.sha256"), proof.sha256],
          ],
          t("detail.evidenceNone"),
        ),
      );
      if (proof.sha256 && proof.mediaUrl) {
        sections.push(
          context.session.roles.has("proofs:export")
            ? mediaViewer(context, proof)
            : h("section", { "aria-label": t("media.title") }, h("h2", {}, t("media.title")), h("p", {}, t("media.needsExport"))),
        );
      }
    }
    sections.push(
      facts(t("screening.title"), [
        ...screeningRows(proof.screening),
        [t("screening.history"), screeningHistory(screeningChanges(proof.history, proofEvents.events))],
      ]),
    );
    if (proof.providerScreening) {
      const answer = proof.providerScreening;
      sections.push(
        facts(t("screening.providerTitle", { provider: answer.provider }), [
          [t("screening.result"), t(`screening.${answer.status}`)],
          [t("screening.screenedAt"), formatDate(answer.screenedAt)],
          [
            t("screening.identifications"),
            answer.identifications.length
              ? h("ul", { class: "plain" }, ...answer.identifications.map((found) => h("li", {}, `${found.name} (${found.category})`)))
              : null,
          ],
        ]),
      );
    }
    if (proof.status === "VERIFIED" && context.session.roles.has(receiptRole)) sections.push(proofReceipt(context, proof.id));
    if (proof.decision) sections.push(decisionFacts(t("detail.decision"), proof.decision));
    if (proof.proposal) sections.push(decisionFacts(t("detail.proposal"), proof.proposal));
    if (proof.history) sections.push(auditHistory(proof.history));
    else sections.push(decisionHistory(proofEvents.events, proof.decisions ?? []));
    // The customer's link was shown once, at the request; a proof still waiting for them can get a new one.
    if (proof.status === "PENDING" && context.session.roles.has(newPortalLinkRole)) sections.push(newPortalLink(context, proof));
    if (context.session.roles.has(legalHoldRole)) sections.push(legalHoldForm(context, proof.id, proof.legalHold, () => void render()));
    // Some kinds are decided by their evidence (a verified signature), unless it left the proof for review
    // (a listed signature under the refusal policy); the others by an officer with proofs:assess.
    const kindInfo = context.proofKinds.get(kind);
    const officerDecides = kindInfo?.decidedByOfficer || (kindInfo?.decidedByOfficerWhenLeftForReview === true && Boolean(proof.leftForReview));
    if (officerDecides && context.session.roles.has(decideRole)) {
      const again = () => void render();
      // A proposal (four eyes) awaits its second officer: a decision on a SUBMITTED proof, a reopening on a decided one.
      if (proof.proposal && (proof.status === "SUBMITTED" || isDecided(proof.status))) sections.push(proposalSettlement(context, proof, proof.proposal, again));
      else if (proof.status === "SUBMITTED") sections.push(decisionForm(context, proof, kind, again));
      // An officer's decision can be set aside (a reviewed signature's too); a signature's own cannot, and shows no controls.
      else if (isDecided(proof.status)) sections.push(reopenForm(context, proof, context.proofKinds.get(kind)?.fourEyes === true, again));
    }
    status.textContent = "";
    root.replaceChildren(h("h1", {}, t("detail.title", { id })), status, ...sections);
  };
  try {
    await render();
  } catch (error) {
    if (wasAbandoned(error)) return;
    status.textContent = error instanceof ApiError ? t("common.refused", { message: error.message }) : t("common.failed");
    return;
  }
  // A change of this proof made elsewhere (another officer, the customer, the chain check, a new list version) shows at once.
  context.onLeave(
    context.live.listen((proof) => {
      if (proof.id === id && `${proof.status} ${proof.screening.status}` !== shown) void render().catch(() => undefined);
    }),
  );
}

/**
 * The history as users without audit:read see it: status changes from the event log and the
 * decision record's entries (both proofs:read), in time order.
 */
function decisionHistory(events: DetailEvent[], decisions: ProofDecision[]): HTMLElement {
  const history = [
    ...events.map((event) => ({ at: event.recordedAt, text: `${t(`change.${event.change}`)} → ${t(`status.${event.proof.status}`)}` })),
    ...decisions.map((entry) => ({
      at: entry.decidedAt,
      text: [
        t(`action.${entry.action}`),
        entry.outcome ? t(`status.${entry.outcome}`) : "",
        t("detail.byWhom", { who: deciderLabel(entry) }),
        entry.reason ? reasonLabel(entry.reason) : "",
        entry.reasonText ?? "",
      ]
        .filter(Boolean)
        .join(" · "),
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return h(
    "section",
    { "aria-label": t("detail.history") },
    h("h2", {}, t("detail.history")),
    history.length
      ? h("ol", {}, ...history.map((entry) => h("li", {}, `${formatDate(entry.at)}: ${entry.text}`)))
      : h("p", { class: "empty" }, t("history.none")),
  );
}

/**
 * The screening's changes onto and off the list: from the audit trail where the user reads it (kept
 * for the retention period), otherwise from the proof's events (kept for the event log's window).
 */
function screeningChanges(history: AuditEntry[] | undefined, events: DetailEvent[]): ScreeningChangeRecord[] {
  if (history) {
    return history
      .filter((entry) => entry.action === "SCREENING_CHANGED")
      .map((entry) => {
        const details = JSON.parse(entry.details) as { to?: string; listVersion?: string };
        return { at: entry.occurredAt, to: details.to ?? "", listVersion: details.listVersion ?? null };
      });
  }
  return events
    .filter((event) => event.change === "SCREENING_CHANGED")
    .map((event) => ({ at: event.recordedAt, to: event.proof.screening.status, listVersion: event.proof.screening.listVersion }));
}
