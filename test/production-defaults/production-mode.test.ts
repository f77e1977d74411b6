import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway, type RunningGateway } from "@compliance-graph/gateway";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import { startTrpd } from "@compliance-graph/trpd";
import { createInternalTokenMinter, createInternalTokenVerifier } from "@compliance-graph/identity";
import { postGraphQL, startStack, type Stack } from "../support/start-stack.js";

const introspection = "{ __schema { queryType { name } } }";

describe("production mode of the gateway", () => {
  let stack: Stack;
  let token: string;
  let folder: string;
  const gateways: RunningGateway[] = [];
  const startProductionGateway = async (options: { introspection?: boolean } = {}) => {
    const gateway = await startGateway({
      port: 0,
      production: true,
      supergraph: { path: stack.supergraphPath },
      subgraphUrls: stack.subgraphUrls,
      oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
      internalToken: {
        privateJwk: stack.internalKey.privateJwk.kid?.startsWith("dev-")
          ? (await generateInternalSigningKey("production-key")).privateJwk
          : stack.internalKey.privateJwk,
      },
      ...options,
      logger: createLogger("gateway", "silent"),
    });
    gateways.push(gateway);
    return gateway;
  };

  beforeAll(async () => {
    stack = await startStack();
    token = await stack.fetchToken();
    folder = await mkdtemp(join(tmpdir(), "cg-production-"));
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await stack?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("refuses to start with a development internal signing key", async () => {
    const { privateJwk } = await generateInternalSigningKey();
    await expect(
      startGateway({
        port: 0,
        production: true,
        supergraph: { path: stack.supergraphPath },
        oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
        internalToken: { privateJwk },
        logger: createLogger("gateway", "silent"),
      }),
    ).rejects.toThrow(/development internal signing key/);
  });

  it("refuses to start with an http issuer that is not loopback", async () => {
    for (const issuer of ["http://idp.example.com/realms/dev", "http://10.0.0.5:8080/realms/dev"]) {
      await expect(
        startGateway({
          port: 0,
          production: true,
          supergraph: { path: stack.supergraphPath },
          oidc: { issuer, audience: stack.idp.audience },
          internalToken: { privateJwk: (await generateInternalSigningKey("production-key")).privateJwk },
          logger: createLogger("gateway", "silent"),
        }),
      ).rejects.toThrow(/OIDC_ISSUER must be an https URL/);
    }
    // The stack's provider listens on http://127.0.0.1, which stays allowed for tests.
    expect(new URL(stack.idp.issuer).hostname).toBe("127.0.0.1");
    await startProductionGateway();
  });

  it("hides introspection unless enabled", async () => {
    const hidden = await startProductionGateway();
    const refused = await postGraphQL(hidden.url, introspection, token);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const shown = await startProductionGateway({ introspection: true });
    const answered = await postGraphQL(shown.url, introspection, token);
    expect(answered.body.data).toEqual({ __schema: { queryType: { name: "Query" } } });
  });

  it("suggests no field names while introspection is off, at the gateway and at a subgraph", async () => {
    const misspelt = "{ trpd { vaspz { name } } }";
    const hidden = await startProductionGateway();
    const refused = await postGraphQL(hidden.url, misspelt, token);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: 'Cannot query field "vaspz" on type "Trpd".',
      extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
    });
    expect(JSON.stringify(refused.body)).not.toMatch(/Did you mean|"vasps"/);
    const badArgument = await postGraphQL(hidden.url, "{ aopd { proofs(limitt: 1) { id } } }", token);
    expect(badArgument.body.errors?.[0]?.message).toBe('Unknown argument "limitt" on field "Aopd.proofs".');
    // Over WebSocket as well: the socket is no way around it.
    const socket = new WebSocket(hidden.url.replace(/^http/, "ws"), "graphql-transport-ws");
    const socketErrors = await new Promise<{ message: string }[]>((resolve, reject) => {
      socket.once("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { bearer_token: token } })));
      socket.on("message", (data) => {
        const message = JSON.parse(String(data)) as { type: string; payload?: unknown };
        if (message.type === "connection_ack")
          socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: "subscription { aopdProofz { id } }" } }));
        if (message.type === "error") resolve(message.payload as { message: string }[]);
      });
      socket.once("error", reject);
    });
    socket.close();
    expect(socketErrors).toHaveLength(1);
    expect(JSON.stringify(socketErrors)).not.toMatch(/Did you mean|"aopdProofs"/);
    // With introspection on, the suggestion helps a developer (control).
    const shown = await startProductionGateway({ introspection: true });
    expect((await postGraphQL(shown.url, misspelt, token)).body.errors?.[0]?.message).toMatch(/Did you mean "vasps"\?/);

    const trpd = await startTrpd({
      config: { port: 0, production: true },
      authenticate: createInternalTokenVerifier({ audience: "trpd", publicKeys: [stack.internalKey.publicJwk] }),
      logger: createLogger("trpd", "silent"),
    });
    try {
      const mint = await createInternalTokenMinter({ privateJwk: stack.internalKey.privateJwk });
      const direct = await postGraphQL(trpd.url, misspelt, await mint({ subject: "s", client: "c", roles: ["travel-rule:read"] }, "trpd"));
      expect(direct.body.errors?.[0]?.message).toBe('Cannot query field "vaspz" on type "Trpd".');
    } finally {
      await trpd.close();
    }
  });

  it("refuses to start on a file that is not a supergraph", async () => {
    const badSupergraph = join(folder, "broken.graphql");
    await writeFile(badSupergraph, "this is not a supergraph");
    await expect(
      startGateway({
        port: 0,
        production: false,
        supergraph: { path: badSupergraph },
        oidc: { issuer: stack.idp.issuer, audience: stack.idp.audience },
        internalToken: { privateJwk: stack.internalKey.privateJwk },
        logger: createLogger("gateway", "silent"),
      }),
    ).rejects.toThrow();
  });
});
