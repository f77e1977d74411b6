import type { ConsoleContext } from "../console-context.js";
import { fieldId, h } from "@compliance-graph/web-dom";
import { ApiError } from "../gateway-api.js";
import type { Role } from "../graphql/api-values.js";
import { graphql, type ResultOf } from "../graphql/graphql.js";
import { formatDate, t } from "../translations.js";

/** The role `proofReceipt` needs (docs/receipts.md): a receipt takes the proof's record out, as an export does. */
export const receiptRole: Role = "proofs:export";

const receiptQuery = graphql(`
  query Receipt($id: ID!) {
    aopd {
      proofReceipt(id: $id) {
        jws
        keyId
        issuedAt
        expiresAt
        jwksPath
      }
    }
  }
`);

type ProofReceipt = NonNullable<ResultOf<typeof receiptQuery>["aopd"]>["proofReceipt"];

/**
 * A VERIFIED proof's signed receipt (`proofReceipt`), for an officer to hand to an auditor or
 * another provider: issued only when asked (each call signs a new one), then shown with its key and
 * validity, to copy or to save as a file. Offered only to officers holding `receiptRole`; the API
 * refuses others anyway.
 */
export function proofReceipt(context: ConsoleContext, proofId: string): HTMLElement {
  const status = h("p", { role: "status" });
  const result = h("div", {});
  const issue = h("button", { type: "button" }, t("receipt.issue")) as HTMLButtonElement;
  issue.addEventListener("click", () => {
    issue.disabled = true;
    status.textContent = t("receipt.issuing");
    void (async () => {
      try {
        const data = await context.api.graphql(receiptQuery, { id: proofId });
        status.textContent = "";
        if (data.aopd) result.replaceChildren(receiptView(context, proofId, data.aopd.proofReceipt));
      } catch (error) {
        status.textContent = error instanceof ApiError ? t("common.refused", { message: error.message }) : t("common.failed");
      } finally {
        issue.disabled = false;
      }
    })();
  });
  return h("section", { "aria-label": t("receipt.title") }, h("h2", {}, t("receipt.title")), h("p", {}, t("receipt.explain")), issue, status, result);
}

function receiptView(context: ConsoleContext, proofId: string, receipt: ProofReceipt): HTMLElement {
  const copied = h("span", { role: "status" });
  const copy = h(
    "button",
    {
      type: "button",
      onclick: async () => {
        await navigator.clipboard.writeText(receipt.jws).then(
          () => (copied.textContent = t("request.copied")),
          () => (copied.textContent = t("request.copyFailed")),
        );
      },
    },
    t("receipt.copy"),
  );
  const download = h(
    "button",
    {
      type: "button",
      onclick: () => {
        // A JWT file (RFC 7519's media type): what `npm run verify-receipt -- <file>` reads.
        const url = URL.createObjectURL(new Blob([receipt.jws], { type: "application/jwt" }));
        const link = h("a", { href: url, download: `aopd-receipt-${proofId}.jwt` });
        document.body.append(link);
        link.click();
        link.remove();
        // Revoked later, not at once: the browser may still be reading the blob for the download.
        const revoke = setTimeout(() => URL.revokeObjectURL(url), 60_000);
        context.onLeave(() => clearTimeout(revoke));
      },
    },
    t("receipt.download"),
  );
  const jwsId = fieldId("receipt-jws");
  return h(
    "div",
    {},
    h(
      "dl",
      {},
      h("dt", {}, t("receipt.keyId")),
      h("dd", {}, receipt.keyId),
      h("dt", {}, t("receipt.issuedAt")),
      h("dd", {}, formatDate(receipt.issuedAt)),
      h("dt", {}, t("receipt.expiresAt")),
      h("dd", {}, formatDate(receipt.expiresAt)),
      h("dt", {}, t("receipt.keys")),
      h("dd", {}, receipt.jwksPath),
    ),
    h("label", { for: jwsId }, t("receipt.jws")),
    h("textarea", { id: jwsId, readonly: true, rows: "6", class: "receipt" }, receipt.jws),
    h("div", { class: "copy-row" }, copy, download, copied),
  );
}
