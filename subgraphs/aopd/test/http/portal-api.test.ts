import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HDKey } from "@scure/bip32";
import {
  ethereumAddressOf,
  multisigVault,
  p2pkhAddress,
  signPsbtAsCoordinator,
  vaultKeys,
  p2wpkhAddress,
  publicKeyOf,
  signBip322PublicKeyHash,
  signLegacy,
  signPersonalMessage,
  testSecretKey,
} from "@compliance-graph/test-kit";
import { etherAsset, portalApi, postJson, requestSatoshiProofFor, requestSignatureProof } from "../support/portal-client.js";
import { startTestAopd, type TestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const key = testSecretKey("portal bitcoin");
const address = p2wpkhAddress(publicKeyOf(key));
const etherKey = testSecretKey("portal ether");
const etherAddress = ethereumAddressOf(etherKey);
const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString("hex")}`;
const armored = (message: string, signedAddress: string, signature: string) =>
  `-----BEGIN BITCOIN SIGNED MESSAGE-----\n${message}\n-----BEGIN SIGNATURE-----\n${signedAddress}\n${signature}\n-----END BITCOIN SIGNED MESSAGE-----\n`;
type Refusal = { error: string; reason: string; status?: string };

describe.each(databaseDrivers)("the portal API on %s", (driver) => {
  let aopd: TestAopd;
  beforeAll(async () => {
    aopd = await startTestAopd(driver, { config: { rateLimitPerCredential: 0, rateLimitPerClient: 0 } });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it("shows a signature proof's public view under its credential, without customer id or comment", async () => {
    // The default message names the customer id (the customer signs it, and the wallet shows it), so
    // this request brings its own message: what is checked is that no field carries either.
    const { token, proof, aoppUri } = await requestSignatureProof(aopd, {
      expectedAddress: address,
      format: "P2WPKH",
      xpubRequired: true,
      message: "Proof of control for the exchange, nonce 5b1f",
    });
    const answer = await portalApi(aopd, token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body).toEqual({
      id: proof.id,
      kind: "signature",
      status: "PENDING",
      asset: { code: "DTI4H95J0R2X", name: "Bitcoin", symbol: "BTC", network: "bitcoin", addressFamily: "bitcoin", decimals: 8 },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      dueAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      address,
      settled: false,
      signature: {
        format: "P2WPKH",
        message: proof.message,
        xpubRequired: true,
        aoppUri,
        psbt: expect.stringMatching(/^cHNidP8/),
        signInMessage: expect.stringMatching(/ wants you to sign in with your Bitcoin account:\n/),
      },
      satoshi: null,
      media: null,
    });
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain("CUST-PORTAL");
    expect(text).not.toContain("internal note");
  });

  it("offers a vault the proof's PSBT, verifies it signed by two of three keys, and offers it no more", async () => {
    const { secrets, publicKeys } = vaultKeys("portal vault", 3);
    const vault = multisigVault(2, publicKeys, { sorted: true });
    const { token } = await requestSignatureProof(aopd, { expectedAddress: vault.address });
    const offered = (await portalApi(aopd, token)).body as { signature: { psbt: string | null } };
    expect(offered.signature.psbt).toMatch(/^cHNidP8/);
    const once = signPsbtAsCoordinator(vault, offered.signature.psbt!, [secrets[1]!]);
    const refused = await postJson<Refusal>(aopd, `${token}/signature`, { signature: once });
    expect(refused).toMatchObject({ status: 400, body: { error: "signature_mismatch", reason: expect.stringContaining("needs exactly 2 signatures") } });
    const signature = signPsbtAsCoordinator(vault, offered.signature.psbt!, [secrets[1]!, secrets[2]!]);
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${token}/signature`, { signature });
    expect(answer).toMatchObject({ status: 200, body: { proof: { status: "VERIFIED" } } });
    expect(((await portalApi(aopd, token)).body as { signature: { psbt: string | null } }).signature.psbt).toBeNull();
    // The same PSBT again is the same success.
    expect(await postJson<{ proof: { status: string } }>(aopd, `${token}/signature`, { signature })).toMatchObject({
      status: 200,
      body: { proof: { status: "VERIFIED" } },
    });
  });

  it("shows a Satoshi proof's amount, deposit address and payment URI", async () => {
    const { token, id, amount } = await requestSatoshiProofFor(aopd);
    const answer = await portalApi(aopd, token);
    expect(answer.status).toBe(200);
    const units = `0.${amount.padStart(8, "0")}`.replace(/0+$/, "");
    expect(answer.body).toMatchObject({
      id,
      kind: "satoshi",
      status: "PENDING",
      address: "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
      signature: null,
      satoshi: {
        amount,
        amountInUnits: units,
        depositAddress: "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h",
        paymentUri: `bitcoin:bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h?amount=${units}`,
        txId: null,
      },
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/CUST-PORTAL|internal note/);
  });

  it("links a token's payment as a token transfer, never as a native payment of the same number", async () => {
    const evmSender = "0x52908400098527886E0F7030069857D2E4169EE7";
    const evmDeposit = "0x8617E340B3D01FA5F11F306F4090FD50E238070D";
    const cake = await requestSatoshiProofFor(aopd, { asset: "DTI79F06FB14", senderAddress: evmSender, depositAddress: evmDeposit });
    const usdc = await requestSatoshiProofFor(aopd, {
      asset: "DTI5R3XFPZSM",
      senderAddress: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
      depositAddress: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So",
    });
    const usdt = await requestSatoshiProofFor(aopd, {
      asset: "DTIC9N6ZVN7S",
      senderAddress: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
      depositAddress: "TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8",
    });
    const paymentUri = async (token: string) =>
      (await portalApi<{ satoshi: { paymentUri: string | null; amountInUnits: string | null } }>(aopd, token)).body.satoshi;
    expect(await paymentUri(cake.token)).toMatchObject({
      paymentUri: `ethereum:0x0e09fabb73bd3ade0a17ecc321fd13a19e81ce82@56/transfer?address=${evmDeposit}&uint256=${cake.amount}`,
    });
    const usdcUnits = `0.${usdc.amount.padStart(6, "0")}`.replace(/0+$/, "");
    expect(await paymentUri(usdc.token)).toEqual({
      paymentUri: `solana:mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So?amount=${usdcUnits}&spl-token=EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v`,
      amountInUnits: usdcUnits,
      amount: usdc.amount,
      depositAddress: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So",
      txId: null,
    });
    expect(await paymentUri(usdt.token)).toMatchObject({ paymentUri: null });
  });

  it("verifies a signature submitted on the portal", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: address });
    const signature = signBip322PublicKeyHash(key, address, proof.message);
    const answer = await postJson<{ proof: { status: string } }>(aopd, `${token}/signature`, { signature });
    expect(answer.status).toBe(200);
    expect(answer.body.proof).toMatchObject({ id: proof.id, status: "VERIFIED", address, dueAt: null });
  });

  it("takes the address from the customer when the request named none, checks it, and sets it on success", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { format: "P2WPKH" });
    expect(proof.address).toBeNull();
    expect(proof.message).toMatch(/^I confirm that I control the address I sign with for CUST-PORTAL\. Nonce: [0-9a-f]{24}$/);
    expect((await portalApi(aopd, token)).body).toMatchObject({ address: null, status: "PENDING" });
    const { body: pending } = await aopd.query(
      `query($id: String!) { aopd { proofs(filter: { is: { any: { id: { eq: $id }, address: { isNull: true } } } }) { id address } } }`,
      {
        id: proof.id,
      },
    );
    expect(pending.errors).toBeUndefined();
    expect(pending.data).toEqual({ aopd: { proofs: [{ id: proof.id, address: null }] } });

    const signature = signBip322PublicKeyHash(key, address, proof.message);
    const legacyAddress = p2pkhAddress(publicKeyOf(key));
    const refusals: [Record<string, unknown>, string][] = [
      [{ signature }, "invalid_address"],
      [{ address: "bc1qnotanaddress", signature }, "invalid_address"],
      // Another network: the ownership checks report it as a format (or network) mismatch.
      [{ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", signature }, "format_mismatch"],
      [{ address: legacyAddress, signature: signLegacy(key, proof.message, 27) }, "format_mismatch"],
      [{ address: p2wpkhAddress(publicKeyOf(testSecretKey("not the signer"))), signature }, "signature_mismatch"],
    ];
    for (const [body, error] of refusals) {
      const answer = await postJson<Refusal>(aopd, `${token}/signature`, body);
      expect([answer.status, answer.body.error], JSON.stringify(body)).toEqual([400, error]);
      expect(answer.body.reason.length).toBeGreaterThan(10);
    }
    const accepted = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/signature`, { address: address.toUpperCase(), signature });
    expect(accepted.status).toBe(200);
    expect(accepted.body.proof).toMatchObject({ status: "VERIFIED", address });
    const { body } = await aopd.query(`query($id: ID!) { aopd { proof(id: $id) { address status } } }`, { id: proof.id });
    expect(body.data).toEqual({ aopd: { proof: { address, status: "VERIFIED" } } });
  });

  it("refuses a signature scheme the named address cannot use with unsupported_signature", async () => {
    const { token, proof } = await requestSignatureProof(aopd, {});
    // A P2PKH address proves control with a legacy signature; a BIP-322 simple one is refused.
    const answer = await postJson<Refusal>(aopd, `${token}/signature`, {
      address: p2pkhAddress(publicKeyOf(key)),
      signature: signBip322PublicKeyHash(key, address, proof.message),
    });
    expect([answer.status, answer.body.error]).toEqual([400, "unsupported_signature"]);
  });

  it("checks a customer-named Ethereum address's checksum and stores it in EIP-55 form", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { asset: etherAsset });
    const signature = hex(signPersonalMessage(etherKey, proof.message));
    const badChecksum = etherAddress.replace(/[a-f]/, (letter) => letter.toUpperCase());
    const refused = await postJson<Refusal>(aopd, `${token}/signature`, { address: badChecksum, signature });
    expect([refused.status, refused.body.error]).toEqual([400, "invalid_address"]);
    const accepted = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/signature`, { address: etherAddress.toLowerCase(), signature });
    expect([accepted.status, accepted.body.proof.address]).toEqual([200, etherAddress]);
    // The retry with the address as first given is the same submission.
    expect((await postJson(aopd, `${token}/signature`, { address: etherAddress.toLowerCase(), signature })).status).toBe(200);
  });

  it("accepts a Bitcoin signed-message block and refuses one over another message with wrong_message", async () => {
    const { token, proof } = await requestSignatureProof(aopd, {});
    const other = await postJson<Refusal>(aopd, `${token}/signature`, {
      signature: armored("Another message", address, signLegacy(key, "Another message", 39)),
    });
    expect([other.status, other.body.error]).toEqual([400, "wrong_message"]);
    const block = armored(proof.message, address, signLegacy(key, proof.message, 39)).replace(/\n/g, "\r\n");
    const accepted = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/signature`, { signature: block });
    expect([accepted.status, accepted.body.proof.status, accepted.body.proof.address]).toEqual([200, "VERIFIED", address]);
  });

  it("accepts an Ethereum { address, msg, sig } export, its address in any case, and refuses another message", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { asset: etherAsset, expectedAddress: etherAddress });
    const exported = (msg: string) => JSON.stringify({ address: etherAddress.toLowerCase(), msg, sig: hex(signPersonalMessage(etherKey, msg)), version: "2" });
    const wrong = await postJson<Refusal>(aopd, `${token}/signature`, { signature: exported("not the message") });
    expect([wrong.status, wrong.body.error]).toEqual([400, "wrong_message"]);
    const mismatch = await postJson<Refusal>(aopd, `${token}/signature`, {
      address: ethereumAddressOf(testSecretKey("x")),
      signature: exported(proof.message),
    });
    expect([mismatch.status, mismatch.body.error]).toEqual([400, "address_mismatch"]);
    const accepted = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/signature`, { signature: exported(proof.message) });
    expect([accepted.status, accepted.body.proof.status]).toEqual([200, "VERIFIED"]);
  });

  it("answers a repeated accepted signature with the same success, and a different one with not_pending", async () => {
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: address });
    const signature = signBip322PublicKeyHash(key, address, proof.message);
    const first = await postJson(aopd, `${token}/signature`, { signature });
    const again = await postJson(aopd, `${token}/signature`, { signature, address });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toEqual(first.body);
    const other = await postJson<Refusal>(aopd, `${token}/signature`, { signature: signLegacy(key, proof.message, 39) });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: "not_pending", status: "VERIFIED" });
  });

  it("refuses xpub problems with their own codes", async () => {
    const account = HDKey.fromMasterSeed(testSecretKey("portal xpub seed")).derive("m/84'/0'/0'");
    const child = account.deriveChild(0).deriveChild(3);
    const childAddress = p2wpkhAddress(child.publicKey!);
    const { token, proof } = await requestSignatureProof(aopd, { expectedAddress: childAddress, xpubRequired: true });
    const signature = signBip322PublicKeyHash(child.privateKey!, childAddress, proof.message);
    const foreign = HDKey.fromMasterSeed(testSecretKey("another portal seed")).derive("m/84'/0'/0'").publicExtendedKey;
    const cases: [Record<string, unknown>, string][] = [
      [{ signature }, "xpub_required"],
      [{ signature, xpub: "xpub-nonsense" }, "invalid_xpub"],
      [{ signature, xpub: foreign }, "xpub_mismatch"],
    ];
    for (const [body, error] of cases) {
      const answer = await postJson<Refusal>(aopd, `${token}/signature`, body);
      expect([answer.status, answer.body.error]).toEqual([400, error]);
    }
    expect((await postJson(aopd, `${token}/signature`, { signature, xpub: account.publicExtendedKey })).status).toBe(200);
  });

  it("moves a Satoshi proof to SUBMITTED by transaction id, idempotently", async () => {
    const { token, id } = await requestSatoshiProofFor(aopd);
    const bad = await postJson<Refusal>(aopd, `${token}/transaction`, { txId: "xyz" });
    expect([bad.status, bad.body.error]).toEqual([400, "invalid_tx_id"]);
    expect(bad.body.reason).toMatch(/64 hexadecimal characters/);
    const txId = "c".repeat(64);
    const first = await postJson<{ proof: Record<string, unknown> }>(aopd, `${token}/transaction`, { txId });
    expect(first.status).toBe(200);
    expect(first.body.proof).toMatchObject({ id, status: "SUBMITTED", dueAt: null, satoshi: { txId } });
    const again = await postJson(aopd, `${token}/transaction`, { txId });
    expect(again).toMatchObject({ status: 200, body: first.body });
    const other = await postJson<Refusal>(aopd, `${token}/transaction`, { txId: "d".repeat(64) });
    expect([other.status, other.body.error, other.body.status]).toEqual([409, "not_pending", "SUBMITTED"]);
  });

  it("refuses submissions past the due time with expired, changing nothing", async () => {
    const signatureProof = await requestSignatureProof(aopd, { expectedAddress: address });
    const satoshiProof = await requestSatoshiProofFor(aopd);
    await aopd.services.db
      .updateTable("aopd_proof")
      .set({ due_at: new Date(Date.now() - 1_000) })
      .where("id", "in", [signatureProof.proof.id, satoshiProof.id])
      .execute();
    const late = await postJson<Refusal>(aopd, `${signatureProof.token}/signature`, {
      signature: signBip322PublicKeyHash(key, address, signatureProof.proof.message),
    });
    expect([late.status, late.body.error]).toEqual([409, "expired"]);
    const lateTx = await postJson<Refusal>(aopd, `${satoshiProof.token}/transaction`, { txId: "e".repeat(64) });
    expect([lateTx.status, lateTx.body.error]).toEqual([409, "expired"]);
    expect((await portalApi(aopd, signatureProof.token)).body).toMatchObject({ status: "PENDING" });
    expect((await portalApi(aopd, satoshiProof.token)).body).toMatchObject({ status: "PENDING", satoshi: { txId: null } });
  });

  it("answers unknown credentials, wrong methods, bad and oversized bodies with their codes", async () => {
    const { token } = await requestSignatureProof(aopd, { expectedAddress: address });
    const unknown = await portalApi<Refusal>(aopd, "A".repeat(43));
    expect([unknown.status, unknown.body.error]).toEqual([404, "unknown_proof"]);
    expect(unknown.headers.get("cache-control")).toBe("no-store");
    const wrongMethod = await portalApi<Refusal>(aopd, `${token}/signature`);
    expect([wrongMethod.status, wrongMethod.body.error, wrongMethod.headers.get("allow")]).toEqual([405, "method_not_allowed", "POST, OPTIONS"]);
    const deleteView = await portalApi<Refusal>(aopd, token, { method: "DELETE" });
    expect([deleteView.status, deleteView.body.error, deleteView.headers.get("allow")]).toEqual([405, "method_not_allowed", "GET, OPTIONS"]);
    const notJson = await postJson<Refusal>(aopd, `${token}/signature`, "{not json");
    expect([notJson.status, notJson.body.error]).toEqual([400, "invalid_body"]);
    const noSignature = await postJson<Refusal>(aopd, `${token}/signature`, { address });
    expect([noSignature.status, noSignature.body.error, noSignature.body.reason]).toEqual([
      400,
      "invalid_body",
      "signature must be a string of 1 to 8192 characters.",
    ]);
    const huge = await postJson<Refusal>(aopd, `${token}/signature`, { signature: "A".repeat(20_000) });
    expect([huge.status, huge.body.error]).toEqual([413, "body_too_large"]);
    const hugeTx = await postJson<Refusal>(aopd, `${token}/transaction`, { txId: "a".repeat(2_000) });
    expect([hugeTx.status, hugeTx.body.error]).toEqual([413, "body_too_large"]);
    const hugeCallback = await fetch(new URL(`/aopp/callback/${token}`, aopd.url), {
      method: "POST",
      body: JSON.stringify({ version: 0, address, signature: "A".repeat(20_000) }),
    });
    expect([hugeCallback.status, ((await hugeCallback.json()) as Refusal).error]).toEqual([413, "body_too_large"]);
    expect((await portalApi(aopd, token)).body).toMatchObject({ status: "PENDING" });
  });

  it("answers a CORS preflight on the callback and the portal API, and lets any origin read the answers", async () => {
    const { token } = await requestSignatureProof(aopd, { expectedAddress: address });
    const preflight = {
      method: "OPTIONS",
      headers: { origin: "https://wallet.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    };
    for (const [path, methods] of [
      [`/aopp/callback/${token}`, "POST"],
      [`/portal/api/proof/${token}/signature`, "POST, OPTIONS"],
      [`/portal/api/proof/${token}`, "GET, OPTIONS"],
    ] as const) {
      const answer = await fetch(new URL(path, aopd.url), preflight);
      expect(answer.status, path).toBe(204);
      expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      expect(answer.headers.get("access-control-allow-methods")).toBe(methods);
      expect(answer.headers.get("access-control-allow-headers")).toBe("content-type");
      expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    }
    const refused = await fetch(new URL(`/aopp/callback/${token}`, aopd.url), {
      method: "POST",
      headers: { origin: "https://wallet.example", "content-type": "application/json" },
      body: "{}",
    });
    expect([refused.status, refused.headers.get("access-control-allow-origin")]).toEqual([400, "*"]);
    const view = await fetch(new URL(`/portal/api/proof/${token}`, aopd.url), { headers: { origin: "https://vasp.example" } });
    expect([view.status, view.headers.get("access-control-allow-origin")]).toEqual([200, "*"]);
  });
});
