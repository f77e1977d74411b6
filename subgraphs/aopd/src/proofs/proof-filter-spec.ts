import type { FilterGroupSpec } from "@compliance-graph/filter";
import type { ProofTable } from "../database/database-schema.js";

export const proofStatuses = ["PENDING", "SUBMITTED", "VERIFIED", "FAILED", "EXPIRED"] as const;
export const screeningStatuses = ["CLEAR", "LISTED", "NOT_SCREENED"] as const;

/** A column of `aopd_proof`: the spec is typed with it, so a column the table lacks is a compile error. */
export type ProofColumnName = keyof ProofTable & string;

/**
 * `AopdProofFilterInput`, field by field: which column each condition reads. The schema file and
 * this spec name the same fields; a test checks that they agree.
 */
export const proofFilterSpec: FilterGroupSpec<ProofColumnName> = {
  kind: "group",
  fields: {
    is: {
      kind: "group",
      fields: {
        any: {
          kind: "group",
          fields: {
            id: { kind: "string", column: "id", uuid: true },
            createdAt: { kind: "timestamp", column: "created_at" },
            address: { kind: "string", column: "address" },
            customerId: { kind: "string", column: "customer_id" },
            asset: { kind: "string", column: "asset" },
            comment: { kind: "string", column: "comment" },
            status: { kind: "enumList", column: "status", values: proofStatuses },
            decision: {
              kind: "group",
              requires: { column: "decision_id", notNull: true },
              fields: {
                decidedAt: { kind: "timestamp", column: "decided_at" },
                deciderSubject: { kind: "string", column: "decider_subject" },
                deciderUsername: { kind: "string", column: "decider_username" },
                deciderClient: { kind: "string", column: "decider_client" },
              },
            },
            screening: {
              kind: "group",
              fields: {
                status: { kind: "enumList", column: "screening_status", values: screeningStatuses },
                screenedAt: { kind: "timestamp", column: "screened_at" },
                listVersion: { kind: "string", column: "screening_list_version" },
              },
            },
          },
        },
        signature: {
          kind: "group",
          requires: { column: "kind", equals: "signature" },
          fields: {
            xpub: {
              kind: "group",
              requires: { column: "xpub", notNull: true },
              fields: { xpub: { kind: "string", column: "xpub" } },
            },
          },
        },
        satoshi: {
          kind: "group",
          requires: { column: "kind", equals: "satoshi" },
          fields: {
            txId: { kind: "string", column: "tx_id" },
            depositAddress: { kind: "string", column: "deposit_address" },
            dueAt: { kind: "timestamp", column: "due_at" },
          },
        },
        media: {
          kind: "group",
          requires: { column: "kind", equals: "media" },
          fields: {
            contentType: { kind: "string", column: "media_content_type" },
            sha256: { kind: "string", column: "media_sha256" },
            uploadedAt: { kind: "timestamp", column: "media_uploaded_at" },
          },
        },
      },
    },
  },
};
