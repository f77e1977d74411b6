import { fileURLToPath } from "node:url";

/** The built page (`npm run build -w @compliance-graph/portal`, run by `npm install`): what aopd serves under `/portal/`. */
export const portalDistDir = fileURLToPath(new URL("./dist/", import.meta.url));
