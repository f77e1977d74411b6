import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseSubgraphRoutes, readSubgraphRoutes } from "../src/http/read-subgraph-routes.js";

const committed = fileURLToPath(new URL("../../subgraph-routes.yaml", import.meta.url));

const refusal = (yaml: string) => {
  try {
    parseSubgraphRoutes(parseYaml(yaml) as unknown, "routes.yaml");
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
};

describe("readSubgraphRoutes", () => {
  it("reads the committed routes: the proof download, the media files, the receipt keys and the audit log's public routes of aopd, with the witnesses' cosignatures", async () => {
    expect(await readSubgraphRoutes(committed)).toEqual([
      {
        path: "/exports/proofs.xlsx",
        subgraph: "aopd",
        methods: ["POST"],
        role: "proofs:export",
        jsonBodyMaxBytes: 65_536,
        errorBody: "graphql",
        headersTimeoutSeconds: 300,
        bodyTimeoutSeconds: 0,
      },
      { path: "/aopd/media/", subgraph: "aopd", errorBody: "reason" },
      { path: "/.well-known/aopd-receipt-keys.json", subgraph: "aopd", methods: ["GET", "HEAD"], public: true },
      { path: "/.well-known/aopd-receipt-status/", subgraph: "aopd", methods: ["GET", "HEAD"], public: true },
      { path: "/.well-known/aopd-audit-checkpoint", subgraph: "aopd", methods: ["GET", "HEAD"], public: true },
      { path: "/.well-known/aopd-audit-checkpoint-key", subgraph: "aopd", methods: ["GET", "HEAD"], public: true },
      { path: "/.well-known/aopd-audit-consistency", subgraph: "aopd", methods: ["GET"], public: true },
      { path: "/.well-known/aopd-audit-cosignature", subgraph: "aopd", methods: ["POST"], public: true, jsonBodyMaxBytes: 16_384 },
    ]);
  });

  it("takes an empty list: a gateway without subgraph routes", () => {
    expect(parseSubgraphRoutes({ routes: [] }, "routes.yaml")).toEqual([]);
  });

  it("refuses a wrong file naming the entry, the field and what is allowed", () => {
    expect(refusal("routes: {}")).toBe("routes.yaml: routes must be a list of routes (an empty list for none).");
    expect(refusal("routes:\n  - subgraph: aopd")).toMatch(/^routes\.yaml: routes\[0\]\.path must be an absolute path/);
    expect(refusal("routes:\n  - path: /x\n    subgraph: aopd\n    rol: proofs:read")).toMatch(
      /^routes\.yaml: routes\[0\]\.rol is not a field of a route; allowed: path, subgraph, methods, role/,
    );
    expect(refusal("routes:\n  - path: /x\n    subgraph: Aopd")).toMatch(/^routes\.yaml: routes\[0\]\.subgraph must name a subgraph/);
    expect(refusal("routes:\n  - path: /x\n    subgraph: aopd\n    methods: [FETCH]")).toMatch(
      /^routes\.yaml: routes\[0\]\.methods must be a non-empty list of GET, HEAD, POST/,
    );
    expect(refusal("routes:\n  - path: /x\n    subgraph: aopd\n    errorBody: html")).toBe("routes.yaml: routes[0].errorBody must be graphql or reason.");
    expect(refusal("routes:\n  - path: /x\n    subgraph: aopd\n    headersTimeoutSeconds: -1")).toBe(
      "routes.yaml: routes[0].headersTimeoutSeconds must be a whole number of at least 0.",
    );
    expect(refusal("routes:\n  - path: /x\n    subgraph: aopd\n    jsonBodyMaxBytes: 0")).toBe(
      "routes.yaml: routes[0].jsonBodyMaxBytes must be a whole number of at least 1.",
    );
  });

  it("refuses a route over the gateway's own paths and two routes for one request", () => {
    expect(refusal("routes:\n  - path: /graphql\n    subgraph: aopd")).toMatch(/^routes\.yaml: routes\[0\]\.path must not overlap the gateway's own paths/);
    expect(refusal("routes:\n  - path: /health/x\n    subgraph: aopd")).toMatch(/must not overlap the gateway's own paths/);
    // The gateway's internal key set is its own; other well-known documents may be a subgraph's.
    expect(refusal("routes:\n  - path: /.well-known/internal-jwks.json\n    subgraph: aopd")).toMatch(/must not overlap the gateway's own paths/);
    expect(refusal("routes:\n  - path: /.well-known/\n    subgraph: aopd")).toMatch(/must not overlap the gateway's own paths/);
    expect(refusal("routes:\n  - path: /.well-known/keys.json\n    subgraph: aopd\n    methods: [GET]\n    public: true")).toBe("accepted");
    expect(refusal("routes:\n  - path: /files/\n    subgraph: aopd\n  - path: /files/a\n    subgraph: trpd")).toBe(
      "routes.yaml: routes[1].path overlaps routes[0].path (/files/); each request must have one route.",
    );
  });

  it("refuses a public route that could take an unbounded body, change something in another way or check a role", () => {
    const publicRoute = (extra: string) => refusal(`routes:\n  - path: /.well-known/keys.json\n    subgraph: aopd\n    public: true${extra}`);
    expect(publicRoute("")).toBe("routes.yaml: routes[0].methods of a public route must be given and only GET, HEAD or POST.");
    expect(publicRoute("\n    methods: [GET, PUT]")).toBe("routes.yaml: routes[0].methods of a public route must be given and only GET, HEAD or POST.");
    expect(publicRoute("\n    methods: [POST]")).toBe(
      "routes.yaml: routes[0].jsonBodyMaxBytes must be given, at most 65536, on a public route that takes POST: anyone may send its body.",
    );
    expect(publicRoute("\n    methods: [POST]\n    jsonBodyMaxBytes: 65537")).toMatch(/jsonBodyMaxBytes must be given, at most 65536/);
    expect(publicRoute("\n    methods: [POST]\n    jsonBodyMaxBytes: 1024")).toBe("accepted");
    expect(publicRoute("\n    methods: [GET]\n    role: proofs:read")).toBe(
      "routes.yaml: routes[0].role cannot be set on a public route: it has no caller to check a role of.",
    );
    expect(publicRoute("\n    methods: [GET]\n    jsonBodyMaxBytes: 10")).toBe(
      "routes.yaml: routes[0].jsonBodyMaxBytes cannot be set on a public route without POST: it takes no body.",
    );
    expect(refusal("routes:\n  - path: /k\n    subgraph: aopd\n    methods: [GET]\n    public: 1")).toBe(
      "routes.yaml: routes[0].public must be true or false.",
    );
  });

  it("names the variable when the file cannot be read", async () => {
    await expect(readSubgraphRoutes("/nonexistent/subgraph-routes.yaml")).rejects.toThrow(/set SUBGRAPH_ROUTES_PATH to the file\.$/);
  });
});
