import type { GraphQLResolverMap } from "@apollo/subgraph/dist/schema-helper/index.js";
import type { Assessment } from "../database/database-schema.js";
import { requestAoppProof, type RequestAoppProofInput } from "../ingestion/request-aopp-proof.js";
import { requestSatoshiProof, type RequestSatoshiProofInput } from "../ingestion/request-satoshi-proof.js";
import { assessSatoshiProof, finalizeSatoshiProof } from "../ingestion/satoshi-proof-transitions.js";
import { assessMediaProof } from "../ingestion/assess-media-proof.js";
import { requestMediaProof, type RequestMediaProofInput } from "../ingestion/request-media-proof.js";
import { toProof } from "../proofs/proof.js";
import type { AopdContext } from "./aopd-context.js";

export const aopdMutationResolvers: GraphQLResolverMap<AopdContext> = {
  Mutation: {
    aopd: () => ({}),
  },
  AopdMutation: {
    requestAoppProof: async (_parent, { input, idempotencyKey }: { input: RequestAoppProofInput; idempotencyKey?: string | null }, context: AopdContext) => {
      const request = await requestAoppProof(context.db, context.config, input, { caller: context.identity, key: idempotencyKey });
      return { proof: toProof(request.row), aoppUri: request.aoppUri, portalUrl: request.portalUrl };
    },
    requestSatoshiProof: async (_parent, { input, idempotencyKey }: { input: RequestSatoshiProofInput; idempotencyKey?: string | null }, context: AopdContext) => {
      // The credential is kept only as a hash: this answer (and its repeats with the same idempotency key) is where its portal URL appears.
      const request = await requestSatoshiProof(context.db, context.config, input, { caller: context.identity, key: idempotencyKey });
      return { ...toProof(request.row), portalUrl: request.portalUrl };
    },
    finalizeSatoshiProof: async (_parent, { id, txId }: { id: string; txId: string }, context: AopdContext) =>
      toProof(await finalizeSatoshiProof(context.db, context.config, id, txId)),
    assessSatoshiProof: async (_parent, args: { id: string; assessment: Assessment; comment?: string | null }, context: AopdContext) =>
      toProof(await assessSatoshiProof(context.db, args.id, args.assessment, args.comment)),
    requestMediaProof: async (_parent, { input, idempotencyKey }: { input: RequestMediaProofInput; idempotencyKey?: string | null }, context: AopdContext) => {
      // As for Satoshi proofs, this answer (and its repeats) is where the credential's portal URL appears.
      const request = await requestMediaProof(context.db, context.config, input, { caller: context.identity, key: idempotencyKey });
      return { ...toProof(request.row), portalUrl: request.portalUrl };
    },
    assessMediaProof: async (_parent, args: { id: string; assessment: Assessment; comment?: string | null }, context: AopdContext) =>
      toProof(await assessMediaProof(context.db, args.id, args.assessment, args.comment)),
  },
};
