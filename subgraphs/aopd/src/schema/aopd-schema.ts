import { readFileSync } from "node:fs";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { dateTimeScalar } from "@compliance-graph/filter";
import { enforceRequiredRoles } from "@compliance-graph/identity";
import { parse, type GraphQLSchema } from "graphql";
import { aopdMutationResolvers } from "../graphql/aopd-mutation-resolvers.js";
import { aopdResolvers } from "../graphql/aopd-resolvers.js";
import { amountScalar } from "../scalars/amount-scalar.js";
import { binaryScalar } from "../scalars/binary-scalar.js";
import { aoppUriScalar, portalUrlScalar } from "../scalars/url-scalar.js";
import { aopdSchemaFile } from "./assemble-aopd-sdl.js";

/**
 * The executable subgraph schema: the contract file read at start-up, with the resolvers, and the
 * roles its `@requiresRole` directives declare enforced here as well as at the gateway.
 */
export function buildAopdSchema(): GraphQLSchema {
  const typeDefs = parse(readFileSync(aopdSchemaFile, "utf8"));
  const schema = buildSubgraphSchema({
    typeDefs,
    resolvers: {
      ...aopdResolvers,
      ...aopdMutationResolvers,
      DateTime: dateTimeScalar,
      Amount: amountScalar,
      Binary: binaryScalar,
      AopdAoppPortalUrl: portalUrlScalar,
      AopdAoppUri: aoppUriScalar,
    },
  });
  return enforceRequiredRoles(schema);
}
