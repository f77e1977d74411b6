/**
 * A supergraph as the schema registry serves it, and the check that it is the registry's.
 *
 * Threat: whoever can write the registry's store, or sits on the network path between a gateway
 * and the registry, would otherwise choose the schema every replica serves: add a field without
 * `@requiresRole`, point a subgraph's routing URL (or a route) at a host of theirs and receive
 * every caller's internal token. So a gateway serves a supergraph only when the registry's ES256
 * signature over it verifies with a key the gateway was given (not one fetched over the same
 * path), the signed version is the version served, and the SHA-256 of both texts, the supergraph
 * and its routes, are the signed ones. Anything else is refused whole; nothing of it is used.
 */
import { createHash } from "node:crypto";
import { compactVerify, type CompactVerifyGetKey } from "jose";

/** The body of the registry's `GET /supergraph` (docs/schema-registry.md), also the gateway's disk copy. */
export interface SignedSupergraph {
  version: number;
  /** The supergraph SDL. */
  supergraph: string;
  /** JSON text of the subgraph routes (entries shaped like `subgraph-routes.yaml`'s). */
  routes: string;
  /** Compact JWS, ES256, over `{ version, supergraphSha256, routesSha256, iat }`. */
  signature: string;
}

/** Why a supergraph was refused; `code` for logs and tests. */
export class SupergraphSignatureError extends Error {
  constructor(
    readonly code: "malformed" | "signature" | "version" | "supergraph_hash" | "routes_hash",
    message: string,
  ) {
    super(message);
    this.name = "SupergraphSignatureError";
  }
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/** Reads an untrusted body into a `SignedSupergraph`, or throws `SupergraphSignatureError("malformed")`. */
export function signedSupergraphFrom(body: unknown): SignedSupergraph {
  const value = body as Partial<SignedSupergraph> | null;
  if (
    value === null ||
    typeof value !== "object" ||
    !Number.isSafeInteger(value.version) ||
    typeof value.supergraph !== "string" ||
    typeof value.routes !== "string" ||
    typeof value.signature !== "string"
  ) {
    throw new SupergraphSignatureError("malformed", "The registry's answer is not { version, supergraph, routes, signature }.");
  }
  return { version: value.version as number, supergraph: value.supergraph, routes: value.routes, signature: value.signature };
}

/** Resolves when `signed` is the registry's, as described above; rejects with `SupergraphSignatureError`. */
export async function verifySignedSupergraph(signed: SignedSupergraph, keys: CompactVerifyGetKey): Promise<void> {
  let claims: { version?: unknown; supergraphSha256?: unknown; routesSha256?: unknown };
  try {
    const { payload } = await compactVerify(signed.signature, keys, { algorithms: ["ES256"] });
    claims = JSON.parse(new TextDecoder().decode(payload)) as typeof claims;
  } catch (error) {
    throw new SupergraphSignatureError("signature", `The supergraph's signature does not verify with the trusted registry keys (${(error as Error).message}).`);
  }
  if (claims.version !== signed.version)
    throw new SupergraphSignatureError("version", `The signature is for version ${String(claims.version)}, not the version ${signed.version} served.`);
  if (claims.supergraphSha256 !== sha256(signed.supergraph))
    throw new SupergraphSignatureError("supergraph_hash", "The supergraph is not the one signed (its SHA-256 differs).");
  if (claims.routesSha256 !== sha256(signed.routes))
    throw new SupergraphSignatureError("routes_hash", "The routes are not the ones signed (their SHA-256 differs).");
}
