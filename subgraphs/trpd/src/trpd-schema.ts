import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { parse, type GraphQLSchema } from "graphql";
import { enforceRequiredRoles } from "@compliance-graph/identity";
import { transfersForAddress } from "./transfers-for-address.js";
import { vasps } from "./vasps.js";

/** The subgraph's contract, read at start-up: `subgraphs/trpd/trpd.graphql`. */
export const trpdSchemaFile = fileURLToPath(new URL("../trpd.graphql", import.meta.url));

interface ProofReference {
  id: string;
  /** Null for a signature proof whose address the customer has not named yet. */
  address?: string | null;
}

const resolvers = {
  Query: {
    // The area object carries nothing; its fields resolve on their own.
    trpd: () => ({}),
  },
  Trpd: {
    vasps: () => vasps,
  },
  AopdProof: {
    // The gateway sends `id` and, for `travelRuleTransfers`, the `address` aopd resolved (@requires).
    __resolveReference: (reference: ProofReference) => reference,
    travelRuleTransfers: (proof: ProofReference) => (proof.address === undefined || proof.address === null ? [] : transfersForAddress(proof.address)),
  },
};

export function buildTrpdSchema(): GraphQLSchema {
  const typeDefs = parse(readFileSync(trpdSchemaFile, "utf8"));
  return enforceRequiredRoles(buildSubgraphSchema({ typeDefs, resolvers }));
}
