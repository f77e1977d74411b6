import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { UnauthenticatedError } from "@compliance-graph/errors";
import {
  createIdentityDoor,
  createInternalTokenMinter,
  createInternalTokenVerifier,
  generateInternalSigningKey,
  insecureDevelopmentIdentityFromEnv,
  type IdentityDoor,
  type IdentityDoorOptions,
} from "../src/index.js";

/** Collects what the door reports, as a subgraph's logger would receive it. */
function recordingLogger() {
  const lines: { level: "error" | "warn"; message: string; object?: object }[] = [];
  return {
    lines,
    logger: {
      error: (object: object, message: string) => lines.push({ level: "error", message, object }),
      warn: (message: string) => lines.push({ level: "warn", message }),
    } satisfies IdentityDoorOptions["logger"],
  };
}

/** A real HTTP server whose one route asks `door.admit` and answers who called, or the refusal. */
async function serveThrough(door: IdentityDoor): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const identity = await door.admit(request, response, "request-1", (status, error) => {
        response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ refused: error.message }));
      });
      if (!identity) return;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(identity));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("a subgraph's identity door, decided once at start", () => {
  it("refuses to exist without a verifier unless the insecure development flag says so", () => {
    const { logger } = recordingLogger();
    expect(() => createIdentityDoor({ subgraph: "aopd", production: false, logger })).toThrow(
      /aopd subgraph has no way to verify the gateway's identity: set INTERNAL_JWT_PUBLIC_JWKS or INTERNAL_JWKS_URL, or, for development only, INSECURE_DEVELOPMENT_IDENTITY=true/,
    );
    expect(() => createIdentityDoor({ subgraph: "aopd", production: true, logger })).toThrow(/refuses to start in production without identity verification/);
  });

  it("refuses the insecure development flag in production, and beside a verifier", async () => {
    const { logger } = recordingLogger();
    expect(() => createIdentityDoor({ subgraph: "trpd", insecureDevelopmentIdentity: true, production: true, logger })).toThrow(
      /trpd subgraph refuses INSECURE_DEVELOPMENT_IDENTITY in production/,
    );
    const key = await generateInternalSigningKey();
    const verifier = createInternalTokenVerifier({ audience: "trpd", publicKeys: [key.publicJwk] });
    expect(() => createIdentityDoor({ subgraph: "trpd", verifier, insecureDevelopmentIdentity: true, production: false, logger })).toThrow(
      /both a verifier .* and INSECURE_DEVELOPMENT_IDENTITY/,
    );
  });

  it("with the flag, serves every caller as the development identity with every role, and says so once at start", async () => {
    const { logger, lines } = recordingLogger();
    const door = createIdentityDoor({
      subgraph: "aopd",
      insecureDevelopmentIdentity: true,
      developmentRoles: ["proofs:write", "proofs:read"],
      production: false,
      logger,
    });
    expect(door.mode).toBe("insecure-development");
    expect(lines).toEqual([{ level: "warn", message: "INSECURE_DEVELOPMENT_IDENTITY: the aopd subgraph serves every caller as a developer with every role" }]);
    const identity = await door.identify({});
    expect(identity).toEqual({ subject: "development", client: "development", roles: ["proofs:read", "proofs:write"] });
    // A caller's copy cannot change what the next caller gets.
    identity.roles.length = 0;
    expect((await door.identify({ authorization: "Bearer anything" })).roles).toEqual(["proofs:read", "proofs:write"]);
  });

  it("with a verifier, admits a caller with the gateway's token and refuses any other with 401 and the Bearer challenge", async () => {
    const key = await generateInternalSigningKey();
    const { logger, lines } = recordingLogger();
    const door = createIdentityDoor({
      subgraph: "trpd",
      verifier: createInternalTokenVerifier({ audience: "trpd", publicKeys: [key.publicJwk] }),
      production: true,
      logger,
    });
    expect(door.mode).toBe("internal-token");
    const served = await serveThrough(door);
    try {
      const mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
      const caller = { subject: "officer-1", client: "console", roles: ["proofs:read"] };
      const admitted = await fetch(served.url, { headers: { authorization: `Bearer ${await mint(caller, "trpd")}` } });
      expect(admitted.status).toBe(200);
      expect(await admitted.json()).toEqual(caller);
      for (const authorization of [undefined, "Bearer not-a-token", `Bearer ${await mint(caller, "aopd")}`]) {
        const refused = await fetch(served.url, authorization ? { headers: { authorization } } : {});
        expect(refused.status).toBe(401);
        expect(refused.headers.get("www-authenticate")).toBe("Bearer");
        expect(await refused.json()).toEqual({ refused: "A valid internal identity token is required." });
      }
      expect(lines).toEqual([]);
    } finally {
      await served.close();
    }
  });

  it("refuses a caller when the verifier itself breaks, and logs why in this process only", async () => {
    const { logger, lines } = recordingLogger();
    const broken = new Error("JWKS endpoint answered HTTP 500");
    const door = createIdentityDoor({ subgraph: "aopd", verifier: async () => Promise.reject(broken), production: false, logger });
    await expect(door.identify({ authorization: "Bearer x" }, "request-7")).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(lines).toEqual([{ level: "error", message: "identity verification failed", object: { err: broken, requestId: "request-7" } }]);
  });
});

describe("INSECURE_DEVELOPMENT_IDENTITY", () => {
  it("is true or false, off when unset, and anything else is an error naming what is allowed", () => {
    expect(insecureDevelopmentIdentityFromEnv({})).toBe(false);
    expect(insecureDevelopmentIdentityFromEnv({ INSECURE_DEVELOPMENT_IDENTITY: "" })).toBe(false);
    expect(insecureDevelopmentIdentityFromEnv({ INSECURE_DEVELOPMENT_IDENTITY: "false" })).toBe(false);
    expect(insecureDevelopmentIdentityFromEnv({ INSECURE_DEVELOPMENT_IDENTITY: "true" })).toBe(true);
    for (const typo of ["1", "yes", "TRUE", "ture"]) {
      expect(() => insecureDevelopmentIdentityFromEnv({ INSECURE_DEVELOPMENT_IDENTITY: typo })).toThrow(
        `INSECURE_DEVELOPMENT_IDENTITY must be "true" or "false" (or unset); got ${JSON.stringify(typo)}.`,
      );
    }
  });
});
