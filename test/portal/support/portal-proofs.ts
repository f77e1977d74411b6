import type { Page } from "playwright-core";
import type { Stack } from "../../support/start-stack.js";

/** A proof as the tests use it: its one-time credential (the portal link's last segment), id and message. */
export interface RequestedProof {
  token: string;
  id: string;
  message: string;
}

/** What the portal tests ask of the gateway, as a compliance team would: request proofs, read their status. */
export function portalProofs(stack: Stack, apiToken: () => string) {
  async function graphql<T>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const { body } = await stack.query(query, apiToken(), variables);
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data as T;
  }
  const tokenOf = (portalUrl: string) => new URL(portalUrl).pathname.split("/").at(-1)!;
  return {
    graphql,
    async requestSignatureProof(input: Record<string, unknown>): Promise<RequestedProof> {
      const data = await graphql<{ aopd: { requestAoppProof: { portalUrl: string; proof: { id: string; message: string } } } }>(
        `
          mutation ($input: AopdRequestAoppProofInput!) {
            aopd {
              requestAoppProof(input: $input) {
                portalUrl
                proof {
                  id
                  message
                }
              }
            }
          }
        `,
        { input: { customerId: "CUST-PORTAL", ...input } },
      );
      const { portalUrl, proof } = data.aopd.requestAoppProof;
      return { token: tokenOf(portalUrl), id: proof.id, message: proof.message };
    },
    async requestSatoshiProof(senderAddress: string): Promise<RequestedProof> {
      const data = await graphql<{ aopd: { requestSatoshiProof: { id: string; portalUrl: string } } }>(
        `
          mutation ($a: String!) {
            aopd {
              requestSatoshiProof(
                input: { customerId: "CUST-PORTAL", asset: DTI4H95J0R2X, senderAddress: $a, depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h" }
              ) {
                id
                portalUrl
              }
            }
          }
        `,
        { a: senderAddress },
      );
      const proof = data.aopd.requestSatoshiProof;
      return { token: tokenOf(proof.portalUrl), id: proof.id, message: "" };
    },
    async statusOf(id: string): Promise<string> {
      const data = await graphql<{ aopd: { proofs: { status: string }[] } }>(
        `
          query ($id: String!) {
            aopd {
              proofs(filter: { is: { any: { id: { eq: $id } } } }) {
                status
              }
            }
          }
        `,
        { id },
      );
      return data.aopd.proofs[0]!.status;
    },
  };
}

/** Waits until a heading of that name is on the page. */
export const headingShown = (page: Page, name: string | RegExp) => page.getByRole("heading", { name }).waitFor();
