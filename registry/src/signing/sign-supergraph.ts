import { createHash } from "node:crypto";
import { CompactSign, compactVerify, createLocalJWKSet, type JSONWebKeySet } from "jose";
import { registrySignatureAlgorithm, type RegistrySigningKey } from "./registry-signing-key.js";

/** What the registry signs of a version: its number and the hashes of the exact texts served. */
export interface SupergraphSignaturePayload {
  version: number;
  supergraphSha256: string;
  routesSha256: string;
  iat: number;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Signs a version at publish; the signature is stored with it and served as stored, never made
 * again from the store, so that whoever can write the store cannot have a schema of theirs signed.
 */
export async function signSupergraph(key: RegistrySigningKey, version: number, supergraph: string, routes: string, now = Date.now()): Promise<string> {
  const payload: SupergraphSignaturePayload = {
    version,
    supergraphSha256: sha256Hex(supergraph),
    routesSha256: sha256Hex(routes),
    iat: Math.floor(now / 1000),
  };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: registrySignatureAlgorithm, kid: key.kid })
    .sign(key.privateKey);
}

/**
 * Verifies a served supergraph as a gateway must (docs/schema-registry.md): the JWS with a key of
 * the set, its version, and both hashes against the texts received. Throws on any mismatch.
 */
export async function verifySupergraphSignature(
  keys: JSONWebKeySet,
  served: { version: number; supergraph: string; routes: string; signature: string },
): Promise<SupergraphSignaturePayload> {
  const { payload } = await compactVerify(served.signature, createLocalJWKSet(keys), { algorithms: [registrySignatureAlgorithm] });
  const claims = JSON.parse(new TextDecoder().decode(payload)) as SupergraphSignaturePayload;
  if (claims.version !== served.version) throw new Error(`The signature is of version ${claims.version}, not ${served.version}.`);
  if (claims.supergraphSha256 !== sha256Hex(served.supergraph)) throw new Error("The supergraph does not match its signature.");
  if (claims.routesSha256 !== sha256Hex(served.routes)) throw new Error("The routes do not match their signature.");
  return claims;
}
