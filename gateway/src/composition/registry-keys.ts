import { existsSync, readFileSync } from "node:fs";
import { createLocalJWKSet, createRemoteJWKSet, type CompactVerifyGetKey, type JWK } from "jose";

/** Path of the registry's public keys (docs/schema-registry.md). */
export const registryKeysPath = "/.well-known/registry-keys.json";

/**
 * The keys a gateway trusts to sign supergraphs. From `GATEWAY_SUPERGRAPH_KEYS`, a JWKS as JSON or
 * the path of a file holding one: given out of band, so that whoever controls the path to the
 * registry cannot swap the keys along with the supergraph. Without it, development only, the
 * registry's published key set is fetched from the registry itself; production refuses that.
 */
export function registryKeysFrom(setting: string | undefined, registryUrl: string, production: boolean): { keys: CompactVerifyGetKey; pinned: boolean } {
  if (setting === undefined || setting.trim() === "") {
    if (production) {
      throw new Error(
        "GATEWAY_REGISTRY_URL needs GATEWAY_SUPERGRAPH_KEYS in production: the registry's public keys (a JWKS, as JSON or a file path), so that a supergraph is trusted by a key given out of band.",
      );
    }
    return { keys: createRemoteJWKSet(new URL(registryKeysPath.slice(1), registryUrl.endsWith("/") ? registryUrl : `${registryUrl}/`)), pinned: false };
  }
  const text = setting.trim().startsWith("{") ? setting : readKeyFile(setting);
  let keys: JWK[];
  try {
    keys = (JSON.parse(text) as { keys: JWK[] }).keys;
  } catch {
    throw new Error('GATEWAY_SUPERGRAPH_KEYS must be a JWKS ({ "keys": [...] }) as JSON, or the path of a file holding one.');
  }
  if (!Array.isArray(keys) || keys.length === 0) throw new Error('GATEWAY_SUPERGRAPH_KEYS must hold at least one key ({ "keys": [...] }).');
  if (keys.some((key) => "d" in key)) throw new Error("GATEWAY_SUPERGRAPH_KEYS must hold public keys only.");
  if (keys.some((key) => key.kty !== "EC" || key.crv !== "P-256")) throw new Error("GATEWAY_SUPERGRAPH_KEYS must hold ES256 keys (kty EC, crv P-256).");
  return { keys: createLocalJWKSet({ keys }), pinned: true };
}

function readKeyFile(path: string): string {
  if (!existsSync(path)) throw new Error(`GATEWAY_SUPERGRAPH_KEYS is neither a JWKS as JSON nor a file that exists: ${JSON.stringify(path)}.`);
  return readFileSync(path, "utf8");
}
