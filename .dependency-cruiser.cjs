/* global module */
// The import rules `npm test` holds the tree to (`npm run check:boundaries`, dependency-cruiser):
// no file imports itself through a circle anywhere, every package is entered through its door, and
// aopd's folders stand on floors, each importing only the floors below it. Why each rule exists is
// in docs/architecture.md ("Folders and floors"); a new folder of aopd gets a floor here.

/** aopd's folders (and top-level files) from the ground up; a room imports only rooms of lower floors. */
const aopdFloors = [
  ["database", "ownership", "scalars", "xlsx", "chain", "portal"],
  ["audit", "aopd-metrics\\.ts"],
  ["screening"],
  ["proofs"],
  ["decisions", "receipts"],
  ["aopd-config\\.ts"],
  ["ingestion"],
  ["kinds"],
  ["events", "export", "seed", "aopd-config-from-env\\.ts"],
  ["graphql"],
  ["http", "subscriptions", "schema"],
  ["start-aopd\\.ts", "internals\\.ts", "cli"],
  ["main\\.ts", "index\\.ts"],
];
const aopd = "^subgraphs/aopd/src/";
const room = (name) => `${aopd}${name}(/|$)`;

/** For each floor: its rooms import nothing of a higher floor, nor a neighbour on their own floor. */
const floorRules = aopdFloors.flatMap((rooms, floor) =>
  rooms.map((name) => ({
    name: "aopd-floors",
    comment: `aopd's ${name.replace("\\.", ".")} stands on floor ${floor + 1}: it imports only the floors below (.dependency-cruiser.cjs lists them).`,
    severity: "error",
    from: { path: room(name) },
    to: {
      path: [...aopdFloors.slice(floor + 1).flat(), ...rooms.filter((other) => other !== name)].map(room),
    },
  })),
);

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Files that import each other in a loop cannot be read, tested or moved one at a time.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "aopd-domain-not-edges",
      comment: "A domain folder of aopd never imports an edge (GraphQL, the HTTP routes, the WebSocket server): the edges call the domain, and map its errors.",
      severity: "error",
      from: { path: `${aopd}(audit|chain|database|decisions|events|export|ingestion|kinds|ownership|proofs|receipts|screening|xlsx)/` },
      to: { path: `${aopd}(graphql|http|subscriptions)/` },
    },
    {
      name: "package-door",
      comment: "Each package has one door (src/index.ts and its package.json exports): nothing reaches into another package's files.",
      severity: "error",
      from: { path: "^(packages|subgraphs)/([^/]+)/" },
      to: { path: "^(packages|subgraphs)/[^/]+/src/", pathNot: ["^$1/$2/", "/src/index\\.ts$", "^subgraphs/aopd/src/(internals\\.ts|ownership/index\\.ts)$"] },
    },
    {
      name: "shared-packages-name-no-subgraph",
      comment: "A shared package knows no deployable (the test kit's use of aopd's signature code is its one documented exception).",
      severity: "error",
      from: { path: "^packages/", pathNot: "^packages/test-kit/" },
      to: { path: "^(gateway|subgraphs|console|portal|dev-identity-provider)/" },
    },
    {
      name: "audit-seeder-for-benchmarks-only",
      comment:
        "The audit log's bulk seeder writes chained entries without the sequencer: only benchmarks and tests reach it, through internals.ts; no route, job or command of aopd may.",
      severity: "error",
      from: { path: aopd, pathNot: `${aopd}internals\\.ts$` },
      to: { path: `${aopd}seed/seed-audit-log\\.ts$` },
    },
    ...floorRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|\\.data)/" },
    // Type-only imports are arrows too: a type from a higher floor ties the floors as much as a value.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".js", ".mjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
