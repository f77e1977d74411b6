import { writeFileSync } from "node:fs";
import { aopdSchemaFile, assembleAopdSdl } from "@compliance-graph/aopd";

/**
 * `npm run generate`: writes the generated contract files. The aopd schema is assembled from its
 * sources (see assemble-aopd-sdl.ts).
 */
writeFileSync(aopdSchemaFile, assembleAopdSdl());
console.log(`wrote ${aopdSchemaFile.pathname}`);
