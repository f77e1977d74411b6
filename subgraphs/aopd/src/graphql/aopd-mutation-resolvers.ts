import { changeLegalHold } from "../audit/legal-hold.js";
import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/index.js";
import type { AssessmentInput } from "../decisions/assessment-input.js";
import { deciderOf } from "../audit/decider.js";
import { reopenProof } from "../decisions/reopen-proof.js";
import { confirmProposal, rejectProposal } from "../decisions/settle-proposal.js";
import { requestAoppProof, type RequestAoppProofInput } from "../kinds/signature/request-aopp-proof.js";
import { requestSatoshiProof, type RequestSatoshiProofInput } from "../kinds/satoshi/request-satoshi-proof.js";
import { assessSatoshiProof, finalizeSatoshiProof } from "../kinds/satoshi/satoshi-proof-transitions.js";
import { assessMediaProof } from "../kinds/media/assess-media-proof.js";
import { assessSignatureProof } from "../kinds/signature/assess-signature-proof.js";
import { requestMediaProof, type RequestMediaProofInput } from "../kinds/media/request-media-proof.js";
import { officerDecides } from "../kinds/proof-kinds.js";
import { issuePortalLink } from "../kinds/issue-portal-link.js";
import { toProof } from "../proofs/proof.js";
import type { AopdContext } from "./aopd-context.js";
import { originOf } from "./origin-of.js";

export const aopdMutationResolvers: GraphQLResolverMap<AopdContext> = {
  Mutation: {
    aopd: () => ({}),
  },
  AopdMutation: {
    requestAoppProof: async (_parent, { input, idempotencyKey }: { input: RequestAoppProofInput; idempotencyKey?: string | null }, context: AopdContext) => {
      const request = await requestAoppProof(context.db, context.config, input, { origin: originOf(context), key: idempotencyKey });
      return { proof: toProof(request.row), aoppUri: request.aoppUri, portalUrl: request.portalUrl };
    },
    assessSignatureProof: async (_parent, { id, ...input }: AssessmentInput & { id: string }, context: AopdContext) =>
      toProof(await assessSignatureProof(context.db, context.config, id, input, deciderOf(context.identity), context.requestId)),
    requestSatoshiProof: async (
      _parent,
      { input, idempotencyKey }: { input: RequestSatoshiProofInput; idempotencyKey?: string | null },
      context: AopdContext,
    ) => {
      // The credential is kept only as a hash: this answer (and its repeats with the same idempotency key) is where its portal URL appears.
      const request = await requestSatoshiProof(context.db, context.config, input, { origin: originOf(context), key: idempotencyKey });
      return { ...toProof(request.row), portalUrl: request.portalUrl };
    },
    issuePortalLink: async (_parent, { id }: { id: string }, context: AopdContext) => {
      // As for a request, this answer is the one place the new credential's links appear.
      const link = await issuePortalLink(context.db, context.config, id, originOf(context));
      return { proof: toProof(link.row), portalUrl: link.portalUrl, aoppUri: link.aoppUri };
    },
    finalizeSatoshiProof: async (_parent, { id, txId }: { id: string; txId: string }, context: AopdContext) =>
      toProof(await finalizeSatoshiProof(context.db, context.config, id, txId, originOf(context))),
    assessSatoshiProof: async (_parent, { id, ...input }: AssessmentInput & { id: string }, context: AopdContext) =>
      toProof(await assessSatoshiProof(context.db, context.config, id, input, deciderOf(context.identity), context.requestId)),
    requestMediaProof: async (_parent, { input, idempotencyKey }: { input: RequestMediaProofInput; idempotencyKey?: string | null }, context: AopdContext) => {
      // As for Satoshi proofs, this answer (and its repeats) is where the credential's portal URL appears.
      const request = await requestMediaProof(context.db, context.config, input, { origin: originOf(context), key: idempotencyKey });
      return { ...toProof(request.row), portalUrl: request.portalUrl };
    },
    assessMediaProof: async (_parent, { id, ...input }: AssessmentInput & { id: string }, context: AopdContext) =>
      toProof(await assessMediaProof(context.db, context.config, id, input, deciderOf(context.identity), context.requestId)),
    confirmProofDecision: async (_parent, { id, comment }: { id: string; comment?: string | null }, context: AopdContext) =>
      toProof(await confirmProposal(context.db, context.config, id, comment, deciderOf(context.identity), context.requestId)),
    rejectProofDecision: async (_parent, { id, reason }: { id: string; reason: string }, context: AopdContext) =>
      toProof(await rejectProposal(context.db, context.config, id, reason, deciderOf(context.identity), context.requestId)),
    reopenProof: async (_parent, { id, reason }: { id: string; reason: string }, context: AopdContext) =>
      toProof(await reopenProof(context.db, context.config, id, reason, deciderOf(context.identity), context.requestId, officerDecides)),
    placeLegalHold: async (_parent, { id, reason }: { id: string; reason: string }, context: AopdContext) =>
      toProof(await changeLegalHold(context.db, id, true, reason, originOf(context))),
    liftLegalHold: async (_parent, { id, reason }: { id: string; reason: string }, context: AopdContext) =>
      toProof(await changeLegalHold(context.db, id, false, reason, originOf(context))),
  },
};
