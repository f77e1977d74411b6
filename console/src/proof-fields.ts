import { graphql, type ResultOf } from "./graphql/graphql.js";
import type { AopdScreeningStatus } from "./graphql/api-values.js";

/**
 * A union of object types (a proof of any kind) read as one object: the fields all kinds share as
 * they are, each kind's own fields optional. A screen reads `proof.txId` without narrowing first
 * (absent on kinds that have none), and every field's type is still the schema's.
 */
export type Flattened<Union> = Pick<Union, keyof Union> & {
  [Key in Union extends unknown ? keyof Union : never]?: Union extends { [Own in Key]?: infer Value } ? Value : never;
};

/** A proof's sanctions screening (`AopdScreening`, docs/screening.md): one selection wherever a screening is shown. */
export const screeningFields = graphql(`
  fragment ProofScreeningFields on AopdScreening {
    status
    list
    listVersion
    screenedAt
    matchedEntry {
      asset
      address
      sdnUid
      sdnName
    }
    matchedForm
    matchedAddress
  }
`);

/** The fields every screen reads of a proof, per kind: one fragment so the table, the detail and live events agree. */
export const proofFields = graphql(
  `
    fragment ProofFields on AopdProof {
      __typename
      id
      address
      customerId
      asset
      status
      comment
      createdAt
      updatedAt
      dueAt
      eventCursor
      screening {
        ...ProofScreeningFields
      }
      ... on AopdSignatureProof {
        format
        message
        signature
        xpub
        signatureScheme
        contractCheckBlockHeight
        leftForReview
        assessment
      }
      ... on AopdSatoshiProof {
        amount
        senderAddress
        depositAddress
        txId
        assessment
        blockHeight
        confirmations
        failureReason
        blockHash
        amountReceived
        amountReceivedUnits
        transactionSenders
      }
      ... on AopdMediaProof {
        contentType
        byteSize
        sha256
        uploadedAt
        assessment
        mediaUrl
      }
    }
  `,
  [screeningFields],
);

/** One entry of a decided kind's decision history (`AopdDecision`), as the detail shows it. */
export const decisionEntryFields = graphql(`
  fragment DecisionEntryFields on AopdDecision {
    action
    decidedAt
    outcome
    reason
    reasonText
    comment
    decider {
      subject
      username
      client
      system
    }
  }
`);

/** What the detail reads beside `proofFields`: the decision in force, the proposal awaiting a second officer, and the whole history. */
export const decisionFields = graphql(
  `
    fragment ProofDecisionFields on AopdProof {
      ... on AopdSignatureProof {
        decision {
          ...DecisionEntryFields
        }
        proposal {
          ...DecisionEntryFields
        }
        decisions {
          ...DecisionEntryFields
        }
      }
      ... on AopdSatoshiProof {
        decision {
          ...DecisionEntryFields
        }
        proposal {
          ...DecisionEntryFields
        }
        decisions {
          ...DecisionEntryFields
        }
      }
      ... on AopdMediaProof {
        decision {
          ...DecisionEntryFields
        }
        proposal {
          ...DecisionEntryFields
        }
        decisions {
          ...DecisionEntryFields
        }
      }
    }
  `,
  [decisionEntryFields],
);

export type ProofDecision = ResultOf<typeof decisionEntryFields>;

export type ScreeningStatus = AopdScreeningStatus;

/** The proof's address checked against the sanctions list (`AopdScreening`, docs/screening.md). */
export type ProofScreening = ResultOf<typeof screeningFields>;

/** A proof kind: the API's kind conditions of `AopdProofFilterInput.is` (all but `any`), as `configuration.proofKinds` names them. */
export type ProofKind = Exclude<keyof NonNullable<ReturnType<typeof graphql.scalar<"AopdProofFilterInput">>["is"]>, "any">;

/** A proof as `proofFields` reads it. */
export type Proof = Flattened<ResultOf<typeof proofFields>>;

export function kindOf(proof: Pick<Proof, "__typename">): ProofKind {
  return proof.__typename === "AopdSatoshiProof" ? "satoshi" : proof.__typename === "AopdMediaProof" ? "media" : "signature";
}

/** What the console reads of each asset of `configuration.supportedAssets` (main.ts). */
export const assetFields = graphql(`
  fragment SupportedAssetFields on AopdSupportedAsset {
    asset
    name
    symbol
    network
    standard
    addressFamily
    decimals
  }
`);

/** An asset: its DTI code, name, symbol, network, token standard (null for a network's native asset), how its addresses are written, decimals. */
export type Asset = ResultOf<typeof assetFields>;
