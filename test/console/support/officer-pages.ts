import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { expect } from "vitest";
import { pngImage } from "@compliance-graph/test-kit";
import { openPage } from "../../portal/support/browser.js";
import type { ConsoleStack } from "./start-console-stack.js";

export const bitcoinAddress = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
export const bitcoinDepositAddress = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
export const bitcoin = "DTI4H95J0R2X";
/** Waits on a busy machine: each is for a signal (a page, a row, a download), never a pause. */
export const slow = { timeout: 60_000 };

/** GraphQL through the stack's gateway with an API client's token (fresh each time: tokens may live 70 s); errors throw. */
export async function apiQuery<T>(stack: ConsoleStack, query: string, variables?: Record<string, unknown>): Promise<T> {
  const body = await stack.query(query, await stack.apiToken(), variables);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

/** The portal credential of a proof, from its portal link. */
export const credentialOf = (portalUrl: string) => new URL(portalUrl).pathname.split("/").at(-1);

/** A media proof a customer completed: requested through /graphql (for `expectedAddress` on Bitcoin), the file uploaded through the portal's API. */
export async function uploadedMediaProof(stack: ConsoleStack, customerId: string, file = pngImage(64, 48), expectedAddress = bitcoinAddress): Promise<string> {
  const { aopd } = await apiQuery<{ aopd: { requestMediaProof: { id: string; portalUrl: string } } }>(
    stack,
    `mutation($input: AopdRequestMediaProofInput!) { aopd { requestMediaProof(input: $input) { id portalUrl } } }`,
    { input: { customerId, asset: bitcoin, expectedAddress } },
  );
  const response = await fetch(`${stack.baseUrl}/portal/api/proof/${credentialOf(aopd.requestMediaProof.portalUrl)}/media`, {
    method: "POST",
    headers: { "content-type": "image/png" },
    body: new Uint8Array(file),
  });
  expect(response.status).toBe(200);
  return aopd.requestMediaProof.id;
}

/** A Satoshi proof whose customer reported a test transaction in the portal: SUBMITTED, for an officer to decide. */
export async function reportedSatoshiProof(stack: ConsoleStack, customerId: string, txId = "ab".repeat(32)): Promise<{ id: string; amount: string }> {
  const { aopd } = await apiQuery<{ aopd: { requestSatoshiProof: { id: string; amount: string; portalUrl: string } } }>(
    stack,
    `mutation($input: AopdRequestSatoshiProofInput!) { aopd { requestSatoshiProof(input: $input) { id amount portalUrl } } }`,
    { input: { customerId, asset: bitcoin, senderAddress: bitcoinAddress, depositAddress: bitcoinDepositAddress } },
  );
  const reported = await fetch(`${stack.baseUrl}/portal/api/proof/${credentialOf(aopd.requestSatoshiProof.portalUrl)}/transaction`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ txId }),
  });
  expect(reported.status).toBe(200);
  return { id: aopd.requestSatoshiProof.id, amount: aopd.requestSatoshiProof.amount };
}

/** Opens `path` in a browser context of its own and signs in on the identity provider's page; resolves when the console shows its first screen. */
export async function signedIn(
  browser: Browser,
  stack: ConsoleStack,
  path: string,
  username = "demo-officer",
  options: BrowserContextOptions = {},
): Promise<Page> {
  const page = await openPage(browser, `${stack.baseUrl}${path}`, options);
  await page.getByLabel("Username").fill(username, slow);
  await page.getByLabel("Password").fill("demo-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("main").getByRole("heading", { level: 1 }).waitFor(slow);
  return page;
}
