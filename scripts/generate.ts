import { writeFileSync } from "node:fs";
import { aopdSchemaFile, assembleAopdSdl } from "@compliance-graph/aopd";
import { composeSupergraph } from "@compliance-graph/gateway";

/**
 * `npm run generate`: writes the generated contract files: the aopd schema, assembled from its
 * sources (see assemble-aopd-sdl.ts), then the supergraph composed from `supergraph.yaml`.
 */
writeFileSync(aopdSchemaFile, assembleAopdSdl());
console.log(`wrote ${aopdSchemaFile.pathname}`);
writeFileSync("supergraph.graphql", await composeSupergraph("supergraph.yaml"));
console.log("wrote supergraph.graphql");
