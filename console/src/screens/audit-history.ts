import { h } from "@compliance-graph/web-dom";
import type { Role } from "../graphql/api-values.js";
import { graphql, type ResultOf } from "../graphql/graphql.js";
import { formatDate, t, textOr } from "../translations.js";

/** The role that reads a proof's `history` (and the whole trail): docs/authorization.md. */
export const auditRole: Role = "audit:read";

/** One entry of a proof's audit trail (`AopdAuditEntry`), as the detail shows it. */
export const auditEntryFields = graphql(`
  fragment AuditEntryFields on AopdAuditEntry {
    seq
    occurredAt
    action
    actor {
      subject
      username
      client
      system
    }
    requestId
    details
  }
`);

export type AuditEntry = ResultOf<typeof auditEntryFields>;

/** Most entries `history` answers (the API's bound, oldest first); a proof with more shows a note that the rest is on the trail. */
const historyLimit = 1000;

/** Who acted, as a person reads it: aopd's own jobs, the customer through the door they used, or the named user. */
function actorLabel(actor: AuditEntry["actor"]): string {
  if (actor.system) return t("detail.system", { subject: actor.subject });
  if (actor.subject === "customer") return t("history.customer", { client: actor.client });
  return actor.username ? `${actor.username} (${actor.subject}, ${actor.client})` : `${actor.subject} (${actor.client})`;
}

/** Codes the console has words for (a status, a screening result) in words; anything else as it was recorded. */
const codeWords: Record<string, string> = { outcome: "status", from: "screening", to: "screening" };
function valueText(name: string, value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value);
  const family = codeWords[name];
  return family ? textOr(`${family}.${value}`, value) : value;
}

/**
 * What changed, from the entry's `details` (canonical JSON whose members depend on the action,
 * docs/audit-trail.md): each member as a name and its value, so a new member shows without a release.
 */
function detailList(details: string): HTMLElement {
  let members: [string, unknown][];
  try {
    const parsed = JSON.parse(details) as unknown;
    members = parsed && typeof parsed === "object" ? Object.entries(parsed as Record<string, unknown>) : [["", parsed]];
  } catch {
    members = [["", details]];
  }
  const shown = members.filter(([, value]) => value !== null && value !== undefined && value !== "");
  return h(
    "ul",
    { class: "plain" },
    ...shown.map(([name, value]) => h("li", {}, name ? `${textOr(`history.detail.${name}`, name)}: ` : "", valueText(name, value))),
  );
}

/**
 * The proof's history from the audit trail: every action on it (requests, evidence, chain findings,
 * decisions, downloads, screening changes, legal holds) with who, when and what, oldest first.
 * Shown only to users with audit:read; the others keep the decision record's history.
 */
export function auditHistory(entries: AuditEntry[]): HTMLElement {
  return h(
    "section",
    { "aria-label": t("detail.history") },
    h("h2", {}, t("detail.history")),
    entries.length >= historyLimit ? h("p", { class: "note" }, t("history.truncated", { count: historyLimit })) : null,
    entries.length
      ? h(
          "div",
          { class: "table-holder" },
          h(
            "table",
            { "aria-label": t("history.tableLabel") },
            h("thead", {}, h("tr", {}, ...["when", "action", "who", "what"].map((key) => h("th", { scope: "col" }, t(`history.${key}`))))),
            h(
              "tbody",
              {},
              ...entries.map((entry) =>
                h(
                  "tr",
                  { "data-action": entry.action },
                  h("td", {}, formatDate(entry.occurredAt)),
                  h("td", {}, textOr(`auditAction.${entry.action}`, entry.action)),
                  h("td", {}, actorLabel(entry.actor)),
                  h("td", {}, detailList(entry.details)),
                ),
              ),
            ),
          ),
        )
      : h("p", {}, t("history.empty")),
  );
}
