import { exportPKCS8, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { registrySigningKeyFrom } from "../src/signing/registry-signing-key.js";
import { signSupergraph, verifySupergraphSignature } from "../src/signing/sign-supergraph.js";

// Written as the attacks a gateway's check stops: whoever writes the store or the network path
// cannot have a supergraph of theirs served.
describe("a supergraph's signature", () => {
  const warn = () => {};
  const served = (signature: string) => ({ version: 3, supergraph: "type Query { a: Int }", routes: "[]", signature });

  it("verifies with the signing key's public half, from a PKCS#8 PEM", async () => {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const key = await registrySigningKeyFrom(await exportPKCS8(privateKey), { production: true, keyId: "registry-2026-11", warn });
    expect(key).toMatchObject({ kid: "registry-2026-11", generated: false, publicJwk: { kty: "EC", crv: "P-256", alg: "ES256", kid: "registry-2026-11" } });
    const signature = await signSupergraph(key, 3, "type Query { a: Int }", "[]");
    await expect(verifySupergraphSignature({ keys: [key.publicJwk] }, served(signature))).resolves.toMatchObject({ version: 3 });
  });

  it("refuses another key's signature, another version's, and changed routes", async () => {
    const key = await registrySigningKeyFrom(undefined, { production: false, warn });
    const attacker = await registrySigningKeyFrom(undefined, { production: false, warn });
    const forged = await signSupergraph({ ...attacker, kid: key.kid }, 3, "type Query { a: Int }", "[]");
    await expect(verifySupergraphSignature({ keys: [key.publicJwk] }, served(forged))).rejects.toThrow(/signature verification failed/);
    const older = await signSupergraph(key, 2, "type Query { a: Int }", "[]");
    await expect(verifySupergraphSignature({ keys: [key.publicJwk] }, served(older))).rejects.toThrow("The signature is of version 2, not 3.");
    const genuine = await signSupergraph(key, 3, "type Query { a: Int }", "[]");
    await expect(verifySupergraphSignature({ keys: [key.publicJwk] }, { ...served(genuine), routes: '[{"path":"/x/","subgraph":"evil"}]' })).rejects.toThrow(
      "The routes do not match their signature.",
    );
  });

  it("is refused in production without a key, or with a development key; development generates one and says so", async () => {
    await expect(registrySigningKeyFrom(undefined, { production: true, warn })).rejects.toThrow(/refuses to start in production without REGISTRY_SIGNING_KEY/);
    await expect(registrySigningKeyFrom("not a key", { production: false, warn })).rejects.toThrow(
      "REGISTRY_SIGNING_KEY must be a private EC P-256 JWK (JSON) or a PKCS#8 PEM.",
    );
    const said: string[] = [];
    const generated = await registrySigningKeyFrom("", { production: false, warn: (message) => said.push(message) });
    expect(generated.generated).toBe(true);
    expect(said).toEqual([expect.stringContaining(`generated the development signing key ${generated.kid}`)]);
    const { exportJWK } = await import("jose");
    const privateJwk = { ...(await exportJWK(generated.privateKey)), kid: generated.kid };
    await expect(registrySigningKeyFrom(JSON.stringify(privateJwk), { production: true, warn })).rejects.toThrow(/refuses the development key/);
  });
});
