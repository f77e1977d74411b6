import type { TestAopd } from "./start-test-aopd.js";

export const bitcoinAsset = "DTI4H95J0R2X";
export const etherAsset = "DTIX9J9K872S";

export interface PortalAnswer<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** A signature proof requested through GraphQL, with its credential as the portal URL carries it. */
export async function requestSignatureProof(aopd: TestAopd, input: Record<string, unknown>) {
  const { body } = await aopd.query(
    `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { aoppUri portalUrl proof { id message address } } } }`,
    { input: { customerId: "CUST-PORTAL", asset: bitcoinAsset, comment: "internal note", ...input } },
  );
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  const request = (
    body.data!.aopd as { requestAoppProof: { aoppUri: string; portalUrl: string; proof: { id: string; message: string; address: string | null } } }
  ).requestAoppProof;
  return { ...request, token: request.portalUrl.split("/").pop()! };
}

export async function requestSatoshiProofFor(aopd: TestAopd, input: Record<string, unknown> = {}) {
  const { body } = await aopd.query(`mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id amount portalUrl } } }`, {
    input: {
      customerId: "CUST-PORTAL",
      asset: bitcoinAsset,
      senderAddress: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
      comment: "internal note",
      ...input,
    },
  });
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  const proof = (body.data!.aopd as { requestSatoshiProof: { id: string; amount: string; portalUrl: string } }).requestSatoshiProof;
  return { ...proof, token: proof.portalUrl.split("/").pop()! };
}

/** Calls the portal API of `aopd` at `/portal/api/proof/<path>`. */
export async function portalApi<T = Record<string, unknown>>(aopd: TestAopd, path: string, init: RequestInit = {}): Promise<PortalAnswer<T>> {
  const response = await fetch(new URL(`/portal/api/proof/${path}`, aopd.url), init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text === "" ? undefined : JSON.parse(text)) as T };
}

export function postJson<T = Record<string, unknown>>(aopd: TestAopd, path: string, body: unknown): Promise<PortalAnswer<T>> {
  return portalApi<T>(aopd, path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
