import { randomUUID } from "node:crypto";
import {
  createInternalTokenMinter,
  createInternalTokenVerifier,
  generateInternalSigningKey,
  type Identity,
  type InternalTokenMinter,
} from "@compliance-graph/identity";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "@compliance-graph/test-kit";
import { aopdConfigFromEnv } from "../../src/aopd-config-from-env.js";
import { pruneIdempotencyKeys } from "../../src/ingestion/prune-idempotency-keys.js";
import { startAopd, type RunningAopd } from "../../src/start-aopd.js";
import type { GraphQLBody } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

const bitcoin = "DTI4H95J0R2X";
const sender = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const deposit = "bc1qm34lsc65zpw79lxes69zkqmk6ee3ewf0j77s3h";
const writer: Identity = { subject: "writer-1", client: "vasp-backend", roles: ["proofs:read", "proofs:write"] };
const otherWriter: Identity = { subject: "writer-2", client: "vasp-backend", roles: ["proofs:read", "proofs:write"] };
const sameSubjectOtherClient: Identity = { ...writer, client: "other-backend" };

const requests = {
  requestAoppProof: {
    type: "AopdRequestAoppProofInput",
    selection: "proof { id status message } aoppUri portalUrl",
    input: (customerId: string) => ({ customerId, asset: bitcoin, expectedAddress: sender }),
  },
  requestSatoshiProof: {
    type: "AopdRequestSatoshiProofInput",
    selection: "id status amount portalUrl",
    input: (customerId: string) => ({ customerId, asset: bitcoin, senderAddress: sender, depositAddress: deposit }),
  },
  requestMediaProof: {
    type: "AopdRequestMediaProofInput",
    selection: "id status portalUrl",
    input: (customerId: string) => ({ customerId, asset: bitcoin, expectedAddress: sender }),
  },
} as const;
type RequestMutation = keyof typeof requests;

/**
 * Retries of the three request mutations with an idempotency key (issue 26, item 2): a client that
 * follows `retryable: true` after a lost answer must get the proof it already created, with links
 * that still work, never a second proof with a second live credential.
 */
describe.each(databaseDrivers)("idempotent proof requests on %s", (driver) => {
  let aopd: RunningAopd;
  let mint: InternalTokenMinter;

  const call = async (mutation: RequestMutation, input: Record<string, unknown>, idempotencyKey: string | null, caller: Identity = writer) => {
    const { type, selection } = requests[mutation];
    const response = await fetch(aopd.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await mint(caller, "aopd")}` },
      body: JSON.stringify({
        query: `mutation($input: ${type}!, $key: String) { aopd { ${mutation}(input: $input, idempotencyKey: $key) { ${selection} } } }`,
        variables: { input, key: idempotencyKey },
      }),
    });
    const body = (await response.json()) as GraphQLBody;
    return { body, answer: body.data ? ((body.data.aopd as Record<string, Record<string, unknown>>)[mutation] ?? null) : null };
  };
  const proofsOf = async (customerId: string) =>
    (await aopd.services.db.selectFrom("aopd_proof").select(["id"]).where("customer_id", "=", customerId).execute()).map((row) => row.id);
  const idOf = (answer: Record<string, unknown> | null) => (answer?.proof as { id?: string } | undefined)?.id ?? (answer?.id as string);
  const publicView = async (portalUrl: string) => {
    const response = await fetch(new URL(`/portal/api/proof/${portalUrl.split("/").pop()}`, aopd.url));
    return { status: response.status, body: (await response.json()) as { id?: string } };
  };

  beforeAll(async () => {
    const key = await generateInternalSigningKey();
    mint = await createInternalTokenMinter({ privateJwk: key.privateJwk });
    const verify = createInternalTokenVerifier({ audience: "aopd", publicKeys: [key.publicJwk] });
    const databaseUrl = driver === "postgres" ? await createTestDatabase("aopdidem") : undefined;
    aopd = await startAopd({
      config: {
        port: 0,
        databaseUrl,
        dataDir: "memory://",
        expiryIntervalSeconds: 0,
        eventPruneIntervalSeconds: 0,
        rateLimitPerClient: 0,
        rateLimitPerCredential: 0,
      },
      authenticate: verify,
    });
  });
  afterAll(async () => {
    await aopd?.close();
  });

  it.each(Object.keys(requests) as RequestMutation[])(
    "%s: the same key and input return the first proof with the same links, and create nothing more",
    async (mutation) => {
      const customerId = `CUST-${randomUUID()}`;
      const key = randomUUID();
      const input = requests[mutation].input(customerId);
      const first = await call(mutation, input, key);
      expect(first.body.errors).toBeUndefined();
      // The retry: same key, same input, the optional fields in another order and spelled out as null.
      const retried = await call(mutation, { comment: null, ...Object.fromEntries(Object.entries(input).reverse()) }, key);
      expect(retried.body.errors).toBeUndefined();
      expect(retried.answer).toEqual(first.answer);
      expect(await proofsOf(customerId)).toEqual([idOf(first.answer)]);
      // The repeated link is a working credential of that proof.
      const view = await publicView(first.answer!.portalUrl as string);
      expect(view).toMatchObject({ status: 200, body: { id: idOf(first.answer) } });
      if (mutation === "requestAoppProof") expect(first.answer!.aoppUri).toMatch(/^aopp:\?v=0&msg=.*&callback=http.*%2F[A-Za-z0-9_-]{43}$/);
    },
  );

  it("without a key, every call creates a proof (as before)", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const input = requests.requestMediaProof.input(customerId);
    const first = await call("requestMediaProof", input, null);
    const second = await call("requestMediaProof", input, null);
    expect(idOf(second.answer)).not.toBe(idOf(first.answer));
    expect((await proofsOf(customerId)).length).toBe(2);
  });

  it("returns the proof as it stands now: a repeat after the customer submitted shows SUBMITTED", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const key = randomUUID();
    const first = await call("requestSatoshiProof", requests.requestSatoshiProof.input(customerId), key);
    const token = (first.answer!.portalUrl as string).split("/").pop();
    const submitted = await fetch(new URL(`/portal/api/proof/${token}/transaction`, aopd.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ txId: "d".repeat(64) }),
    });
    expect(submitted.status).toBe(200);
    const retried = await call("requestSatoshiProof", requests.requestSatoshiProof.input(customerId), key);
    expect(retried.answer).toEqual({ ...first.answer, status: "SUBMITTED" });
  });

  it("refuses the same key with another input or for another mutation, naming the key, and creates nothing", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const key = randomUUID();
    await call("requestMediaProof", requests.requestMediaProof.input(customerId), key);
    const otherInput = await call("requestMediaProof", { ...requests.requestMediaProof.input(customerId), comment: "second thoughts" }, key);
    expect(otherInput.body.errors).toEqual([
      expect.objectContaining({
        message: `idempotencyKey: "${key}" was already sent by this caller with another input; a key names one request: repeat that request's input exactly, or send a new key for a new request.`,
        extensions: expect.objectContaining({ code: "BAD_USER_INPUT", field: "idempotencyKey" }),
      }),
    ]);
    const otherMutation = await call("requestAoppProof", requests.requestAoppProof.input(customerId), key);
    expect(otherMutation.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining(`"${key}" was already sent by this caller with requestMediaProof;`),
      extensions: { code: "BAD_USER_INPUT" },
    });
    expect((await proofsOf(customerId)).length).toBe(1);
  });

  it("keeps keys apart per caller: another subject, or the same subject through another client, gets a proof of its own", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const key = randomUUID();
    const input = requests.requestMediaProof.input(customerId);
    const ids = [];
    for (const caller of [writer, otherWriter, sameSubjectOtherClient]) ids.push(idOf((await call("requestMediaProof", input, key, caller)).answer));
    expect(new Set(ids).size).toBe(3);
    expect(idOf((await call("requestMediaProof", input, key, otherWriter)).answer)).toBe(ids[1]);
  });

  it("creates one proof for concurrent requests with one key, and answers each with it", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const key = randomUUID();
    const input = requests.requestAoppProof.input(customerId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => call("requestAoppProof", input, key)));
    for (const { body } of answers) expect(body.errors).toBeUndefined();
    expect(new Set(answers.map(({ answer }) => JSON.stringify(answer))).size).toBe(1);
    expect(await proofsOf(customerId)).toEqual([idOf(answers[0]!.answer)]);
    // The losers' proofs were rolled back with their CREATED events: subscribers heard of one proof.
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM aopd_proof_event WHERE proof->>'customer_id' = ${customerId}`.execute(aopd.services.db);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it.each([
    ["shorter than 16 characters", "retry-1"],
    ["with a space", "order 42 first attempt"],
    ["longer than 255 characters", "k".repeat(256)],
    ["with a non-ASCII character", "schlüssel-0123456789"],
  ])("refuses a key %s with BAD_USER_INPUT and creates nothing", async (_case, key) => {
    const customerId = `CUST-${randomUUID()}`;
    const { body } = await call("requestSatoshiProof", requests.requestSatoshiProof.input(customerId), key);
    expect(body.errors?.[0]).toMatchObject({
      message: "idempotencyKey: must be 16 to 255 printable ASCII characters without spaces; send a random value such as a UUID, new for each new request.",
      extensions: { code: "BAD_USER_INPUT", field: "idempotencyKey" },
    });
    expect(await proofsOf(customerId)).toEqual([]);
  });

  it("stores neither the key nor the credential: only their hashes and the salt", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const key = randomUUID();
    const { answer } = await call("requestMediaProof", requests.requestMediaProof.input(customerId), key);
    const token = (answer!.portalUrl as string).split("/").pop()!;
    const { rows } = await sql<{ dump: string }>`
      SELECT (SELECT to_jsonb(r)::text FROM aopd_idempotent_request r WHERE r.proof_id = p.id) || to_jsonb(p)::text AS dump FROM aopd_proof p WHERE p.id = ${idOf(answer)}
    `.execute(aopd.services.db);
    const dump = rows[0]!.dump;
    for (const secret of [key, token, Buffer.from(key).toString("hex"), Buffer.from(token).toString("hex"), Buffer.from(token, "base64url").toString("hex")]) {
      expect(dump).not.toContain(secret);
    }
  });

  it("forgets a key after its lifetime: the same key then creates a new proof, and pruning removes the old record", async () => {
    const customerId = `CUST-${randomUUID()}`;
    const key = randomUUID();
    const input = requests.requestMediaProof.input(customerId);
    const first = await call("requestMediaProof", input, key);
    // Stands in for AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS passing: the record's expiry moved into the past.
    await sql`UPDATE aopd_idempotent_request SET expires_at = now() - interval '1 second' WHERE proof_id = ${idOf(first.answer)}`.execute(aopd.services.db);
    const second = await call("requestMediaProof", input, key);
    expect(idOf(second.answer)).not.toBe(idOf(first.answer));
    expect(second.answer!.portalUrl).not.toBe(first.answer!.portalUrl);
    expect(idOf((await call("requestMediaProof", input, key)).answer)).toBe(idOf(second.answer));
    const other = await call("requestMediaProof", { ...input, customerId: `${customerId}-B` }, randomUUID());
    await sql`UPDATE aopd_idempotent_request SET expires_at = now() - interval '1 second' WHERE proof_id = ${idOf(other.answer)}`.execute(aopd.services.db);
    expect(await pruneIdempotencyKeys(aopd.services.db, 1)).toBeGreaterThanOrEqual(1);
    const { rows } = await sql<{
      proof_id: string;
    }>`SELECT proof_id FROM aopd_idempotent_request WHERE proof_id IN (${idOf(second.answer)}, ${idOf(other.answer)})`.execute(aopd.services.db);
    expect(rows.map((row) => row.proof_id)).toEqual([idOf(second.answer)]);
  });
});

describe("the idempotency key lifetime", () => {
  it("defaults to 24 hours, and production refuses less, naming the variable", () => {
    expect(aopdConfigFromEnv({}).idempotencyKeyLifetimeSeconds).toBe(86_400);
    expect(aopdConfigFromEnv({ AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS: "60" }).idempotencyKeyLifetimeSeconds).toBe(60);
    expect(() => aopdConfigFromEnv({ NODE_ENV: "production", AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS: "3600" })).toThrow(
      "AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS must be at least 86400 (24 hours) in production, where clients retry for up to a day; got 3600.",
    );
    expect(() => aopdConfigFromEnv({ AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS: "0" })).toThrow("AOPD_IDEMPOTENCY_KEY_LIFETIME_SECONDS must be at least 1.");
  });
});
