import type { AopdConfig } from "../../aopd-config.js";

/**
 * The message that says where a signing request came from: EIP-4361 (Sign-In with Ethereum) on an
 * EVM network, and the same fields as CAIP-122 names them for the other chains. A wallet that
 * understands it shows the requesting domain and warns when the page asking differs (the "AOPP
 * relay" raised against AOPP in 2022); aopd checks the same fields when the signature arrives.
 *
 *     <domain> wants you to sign in with your <chain name> account:
 *     <address>
 *
 *     <statement>
 *
 *     URI: <uri>
 *     Version: 1
 *     Chain ID: <chain id>
 *     Nonce: <nonce>
 *     Issued At: <RFC 3339>
 *     Expiration Time: <RFC 3339>
 */
export interface SignInFields {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  chainId: string;
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

/** EIP-155 chain ids (EVM) and CAIP-2 chain ids (the others) of the networks the asset registry names. */
const chains: Record<string, { name: string; chainId: string }> = {
  ethereum: { name: "Ethereum", chainId: "1" },
  polygon: { name: "Ethereum", chainId: "137" },
  "binance-smart-chain": { name: "Ethereum", chainId: "56" },
  // CAIP-2: the genesis hashes of Solana's and Bitcoin's main networks, TRON's chain id.
  solana: { name: "Solana", chainId: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp" },
  bitcoin: { name: "Bitcoin", chainId: "bip122:000000000019d6689c085ae165831e93" },
  tron: { name: "TRON", chainId: "tron:0x2b6653dc" },
};

/** The chain a network's sign-in message names, or undefined where none is known (no sign-in message is offered). */
export function signInChainOf(network: string | null): { name: string; chainId: string } | undefined {
  return network === null ? undefined : chains[network];
}

/** The domain and URI of this deployment's portal: the ones a sign-in message must name. */
export function signInOrigin(config: Pick<AopdConfig, "portalUrl">): { domain: string; uri: string } {
  const url = new URL(config.portalUrl);
  return { domain: url.host, uri: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

export function formatSignInMessage(fields: SignInFields, chainName: string): string {
  return [
    `${fields.domain} wants you to sign in with your ${chainName} account:`,
    fields.address,
    "",
    fields.statement,
    "",
    `URI: ${fields.uri}`,
    "Version: 1",
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
    `Expiration Time: ${fields.expirationTime}`,
  ].join("\n");
}

const preamble = /^(\S+) wants you to sign in with your (\S+) account:$/;
const labels = {
  URI: "uri",
  Version: "version",
  "Chain ID": "chainId",
  Nonce: "nonce",
  "Issued At": "issuedAt",
  "Expiration Time": "expirationTime",
  "Not Before": "notBefore",
  "Request ID": "requestId",
} as const;

/** Whether a signed message claims to be a sign-in message (and is then checked as one, never as a plain message). */
export function looksLikeSignInMessage(message: string): boolean {
  return preamble.test(message.replace(/\r\n?/g, "\n").split("\n")[0] ?? "");
}

/**
 * The fields of a sign-in message, or why it is not one. Lenient in what it reads (an optional
 * statement, Not Before, Request ID, Resources), strict in what aopd needs: every field of
 * `SignInFields` but the statement, and Version 1.
 */
export function parseSignInMessage(
  message: string,
): { ok: true; fields: Omit<SignInFields, "statement"> & { notBefore?: string } } | { ok: false; reason: string } {
  const lines = message.replace(/\r\n?/g, "\n").split("\n");
  const head = preamble.exec(lines[0] ?? "");
  const address = lines[1]?.trim();
  if (!head || !address)
    return { ok: false, reason: 'The sign-in message does not start with "<domain> wants you to sign in with your <chain> account:" and the address.' };
  const found: Record<string, string> = {};
  for (const line of lines.slice(2)) {
    const match = /^([A-Za-z ]+): (.*)$/.exec(line);
    const key = match ? labels[match[1] as keyof typeof labels] : undefined;
    if (key && !(key in found)) found[key] = match![2]!.trim();
  }
  const missing = (["uri", "version", "chainId", "nonce", "issuedAt", "expirationTime"] as const).filter((key) => !found[key]);
  if (missing.length) return { ok: false, reason: `The sign-in message lacks ${missing.join(", ")}; sign the message the portal shows.` };
  if (found.version !== "1") return { ok: false, reason: `The sign-in message's Version is ${found.version}; only 1 is accepted.` };
  return {
    ok: true,
    fields: {
      domain: head[1]!,
      address,
      uri: found.uri!,
      chainId: found.chainId!,
      nonce: found.nonce!,
      issuedAt: found.issuedAt!,
      expirationTime: found.expirationTime!,
      ...(found.notBefore ? { notBefore: found.notBefore } : {}),
    },
  };
}
