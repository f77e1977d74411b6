import type { Identity } from "@compliance-graph/identity";
import { ofacSdnListName } from "@compliance-graph/sanctions-lists";
import { p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { expect } from "vitest";
import { importSanctionsList } from "../../src/screening/import-sanctions-list.js";
import type { DatabaseDriver } from "./test-database.js";
import { startAopdWithOfficers, type AopdWithOfficers } from "./aopd-with-officers.js";
import { bitcoinAsset, postJson } from "./portal-client.js";

const entry = "action outcome reason reasonText comment decider { username }";
/** The fields of a signature proof the decision tests read. */
export const signatureProofFields = `id status leftForReview assessment decision { ${entry} } proposal { ${entry} } decisions { ${entry} }`;
export type SignatureProofRow = {
  id: string;
  status: string;
  leftForReview: string | null;
  decision: Record<string, unknown> | null;
  decisions: Record<string, unknown>[];
};
type Refusal = Error & { extensions?: Record<string, unknown> };

/** A client that requests proofs for customers, as an intake service does. */
export const requester: Identity = { subject: "sa-requests", client: "intake-service", roles: ["proofs:read", "proofs:write"] };

export interface ListedSignatureReview {
  aopd: AopdWithOfficers;
  /** A key whose P2WPKH address is on the list, and one whose address is not. */
  listed: { key: Uint8Array; address: string };
  clear: { key: Uint8Array; address: string };
  /** Runs one aopd operation as `identity`; its first field's value, or throws the first error with its extensions. */
  run(identity: Identity, query: string, variables: Record<string, unknown>): Promise<SignatureProofRow>;
  /** `assessSignatureProof` with these arguments, answering the proof's decision fields. */
  assess(identity: Identity, id: string, args: string): Promise<SignatureProofRow>;
  /** A signature proof requested without an address and signed in the portal by `key`: SUBMITTED for review when its address is listed, VERIFIED otherwise. */
  signedProof(signer: { key: Uint8Array; address: string }): Promise<string>;
  close(): Promise<void>;
}

/** What a refused operation said: its message, code and field. */
export function refusal(promise: Promise<unknown>): Promise<{ message: string; code: unknown; field: unknown }> {
  return promise.then(
    () => expect.unreachable("the API accepted it"),
    (error: Refusal) => ({ message: error.message, code: error.extensions?.code, field: error.extensions?.field }),
  );
}

/**
 * An aopd under `AOPD_SCREENING_POLICY=refuse` with four eyes on signature proofs, whose list names
 * one key's address: a signature of that key leaves its proof for an officer's review. `label`
 * makes the keys and the list's source this test's own.
 */
export async function startListedSignatureReview(driver: DatabaseDriver, label: string): Promise<ListedSignatureReview> {
  const aopd = await startAopdWithOfficers(driver, {
    rateLimitPerCredential: 0,
    rateLimitPerClient: 0,
    screening: { policy: "refuse", provider: undefined },
    fourEyesKinds: ["signature"],
  });
  const signer = (name: string) => {
    const key = testSecretKey(`${label} ${name}`);
    return { key, address: p2wpkhAddress(publicKeyOf(key)) };
  };
  const listed = signer("listed");
  const clear = signer("clear");
  await importSanctionsList(aopd.services.db, aopd.services.config.assets, {
    list: ofacSdnListName,
    publishedOn: "2099-01-01",
    source: label,
    contentHash: "e".repeat(64),
    addresses: [{ ofacAsset: "XBT", address: listed.address, family: "bitcoin", sdnUid: "993501", sdnName: "LISTED SIGNER" }],
  });
  const run = async (identity: Identity, query: string, variables: Record<string, unknown>) => {
    const { body } = await aopd.queryAs(identity, query, variables);
    if (body.errors) throw Object.assign(new Error(body.errors[0]!.message), { extensions: body.errors[0]!.extensions }) as Refusal;
    return Object.values(body.data!.aopd as Record<string, SignatureProofRow>)[0]!;
  };
  return {
    aopd,
    listed,
    clear,
    run,
    assess: (identity, id, args) => run(identity, `mutation($id: ID!) { aopd { assessSignatureProof(id: $id, ${args}) { ${signatureProofFields} } } }`, { id }),
    signedProof: async ({ key, address }) => {
      const requested = await run(
        requester,
        `mutation($input: AopdRequestAoppProofInput!) { aopd { requestAoppProof(input: $input) { portalUrl proof { id message } } } }`,
        { input: { customerId: "CUST-LISTED", asset: bitcoinAsset, format: "P2WPKH" } },
      );
      const { portalUrl, proof } = requested as unknown as { portalUrl: string; proof: { id: string; message: string } };
      const answer = await postJson(aopd, `${portalUrl.split("/").pop()!}/signature`, {
        address,
        signature: signBip322PublicKeyHash(key, address, proof.message),
      });
      expect(answer.status).toBe(200);
      return proof.id;
    },
    close: () => aopd.close(),
  };
}
