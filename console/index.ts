import { fileURLToPath } from "node:url";

/** The built console (`npm run build -w @compliance-graph/console`, run by `npm install`): the static files behind `/console/`. */
export const consoleDistDir = fileURLToPath(new URL("./dist/", import.meta.url));

export { consoleRoute, type ConsoleSettings } from "./server/console-route.js";
