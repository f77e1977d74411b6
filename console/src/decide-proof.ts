import type { GatewayApi } from "./gateway-api.js";
import type { Role } from "./graphql/api-values.js";
import type { AopdAssessment, AopdDecisionReason } from "./graphql/api-values.js";
import { graphql, type ResultOf, type TypedDocument } from "./graphql/graphql.js";
import type { ProofKind } from "./proof-fields.js";
import { textOr } from "./translations.js";

/** An officer's decision: the API's `AopdAssessment`. */
export type Decision = AopdAssessment;

/**
 * A code of `AopdDecisionReason`. The lists are the API's (`configuration.proofKinds`, each kind's
 * `decisionReasons`, read at start into the console's context), so a code added there shows here
 * without a release; one is required for FAILED, and `OTHER` needs words (docs/decisions.md).
 */
export type DecisionReason = AopdDecisionReason;

/** A reason code in words; a code the translations do not know yet (new in the API) shows as itself. */
export function reasonLabel(code: DecisionReason): string {
  return textOr(`reason.${code}`, code);
}

/** The reason that needs the officer's own words. */
export const reasonInWords: DecisionReason = "OTHER";

export interface DecisionInput {
  decision: Decision;
  reason: DecisionReason | null;
  reasonText: string;
  comment: string;
}

/** What a decision, a reopening or a settled proposal answers: the proof's new status. */
const settledFields = graphql(`
  fragment SettledProofFields on AopdProof {
    __typename
    id
    status
  }
`);

type Settled = ResultOf<typeof settledFields>;

const assessSatoshi = graphql(
  `
    mutation DecideSatoshi($id: ID!, $assessment: AopdAssessment!, $reason: AopdDecisionReason, $reasonText: String, $comment: String) {
      aopd {
        decided: assessSatoshiProof(id: $id, assessment: $assessment, reason: $reason, reasonText: $reasonText, comment: $comment) {
          ...SettledProofFields
        }
      }
    }
  `,
  [settledFields],
);

const assessSignature = graphql(
  `
    mutation DecideSignature($id: ID!, $assessment: AopdAssessment!, $reason: AopdDecisionReason, $reasonText: String, $comment: String) {
      aopd {
        decided: assessSignatureProof(id: $id, assessment: $assessment, reason: $reason, reasonText: $reasonText, comment: $comment) {
          ...SettledProofFields
        }
      }
    }
  `,
  [settledFields],
);

const assessMedia = graphql(
  `
    mutation DecideMedia($id: ID!, $assessment: AopdAssessment!, $reason: AopdDecisionReason, $reasonText: String, $comment: String) {
      aopd {
        decided: assessMediaProof(id: $id, assessment: $assessment, reason: $reason, reasonText: $reasonText, comment: $comment) {
          ...SettledProofFields
        }
      }
    }
  `,
  [settledFields],
);

type DecideDocument = TypedDocument<
  { aopd: { decided: Settled } | null },
  { id: string; assessment: Decision; reason?: DecisionReason | null; reasonText?: string | null; comment?: string | null }
>;

/**
 * The mutation that records an officer's decision of each kind the API says an officer decides
 * (`configuration.proofKinds`): the documents are the console's own, one per kind.
 */
const assessMutationOf: Partial<Record<ProofKind, DecideDocument>> = { signature: assessSignature, satoshi: assessSatoshi, media: assessMedia };

/**
 * The one place the console records an officer's decision (`assess…Proof`), which records the
 * caller as the decider (role `proofs:assess`).
 */
export async function decideProof(api: GatewayApi, kind: ProofKind, id: string, input: DecisionInput): Promise<Settled> {
  const document = assessMutationOf[kind];
  if (!document) throw new Error(`The console has no decision for ${kind} proofs.`);
  const data = await api.graphql(document, {
    id,
    assessment: input.decision,
    reason: input.reason,
    reasonText: input.reasonText || null,
    comment: input.comment || null,
  });
  return settledOf(data.aopd?.decided);
}

/** The settled proof of a mutation's answer; `aopd` is nullable in the schema, but a mutation the API accepted answers it. */
function settledOf(proof: Settled | undefined): Settled {
  if (!proof) throw new Error("The API answered without the proof.");
  return proof;
}

/** The role a decision needs (docs/authorization.md). */
export const decideRole: Role = "proofs:assess";

const reopen = graphql(
  `
    mutation Reopen($id: ID!, $reason: String!) {
      aopd {
        reopenProof(id: $id, reason: $reason) {
          ...SettledProofFields
        }
      }
    }
  `,
  [settledFields],
);

const confirm = graphql(
  `
    mutation Confirm($id: ID!, $comment: String) {
      aopd {
        confirmProofDecision(id: $id, comment: $comment) {
          ...SettledProofFields
        }
      }
    }
  `,
  [settledFields],
);

const reject = graphql(
  `
    mutation Reject($id: ID!, $reason: String!) {
      aopd {
        rejectProofDecision(id: $id, reason: $reason) {
          ...SettledProofFields
        }
      }
    }
  `,
  [settledFields],
);

/**
 * Corrections: sets an officer's decision aside (`reopenProof`: a Satoshi or media proof, a signature
 * proof left for review); it returns to SUBMITTED to be decided again, and the earlier decision stays
 * in its history.
 */
export async function reopenProof(api: GatewayApi, id: string, reason: string): Promise<Settled> {
  const data = await api.graphql(reopen, { id, reason });
  return settledOf(data.aopd?.reopenProof);
}

/**
 * Four eyes: a second officer confirms (the proposal takes effect) or rejects (the proof goes back
 * to review) another officer's proposal. The API refuses the proposer with CONFLICT and
 * `extensions.proposedBy`, whatever the page shows.
 */
export async function settleProposal(
  api: GatewayApi,
  id: string,
  settlement: { confirm: true; comment: string } | { confirm: false; reason: string },
): Promise<Settled> {
  if (settlement.confirm) {
    const data = await api.graphql(confirm, { id, comment: settlement.comment || null });
    return settledOf(data.aopd?.confirmProofDecision);
  }
  const data = await api.graphql(reject, { id, reason: settlement.reason });
  return settledOf(data.aopd?.rejectProofDecision);
}
