import { importJWK, SignJWT, type JWK, type JWTPayload } from "jose";

/** The claims of a genuine access token of the development provider, for variations on it. */
export function decodeClaims(token: string): JWTPayload {
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as JWTPayload;
}

/** Signs `claims` as given (no defaults added), with `privateJwk` and the given header (`typ` an access token's, `at+jwt`, unless given). */
export async function signToken(privateJwk: JWK, claims: JWTPayload, header: { alg?: string; kid?: string; typ?: string } = {}): Promise<string> {
  const alg = header.alg ?? privateJwk.alg ?? "RS256";
  return new SignJWT(claims).setProtectedHeader({ alg, typ: header.typ ?? "at+jwt", kid: header.kid ?? privateJwk.kid }).sign(await importJWK(privateJwk, alg));
}

export function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}
