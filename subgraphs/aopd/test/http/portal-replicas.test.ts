import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, p2wpkhAddress, publicKeyOf, signBip322PublicKeyHash, testSecretKey } from "@compliance-graph/test-kit";
import { startAopd, type RunningAopd } from "../../src/start-aopd.js";
import { readEventStream } from "../support/read-event-stream.js";

const key = testSecretKey("portal replicas");
const address = p2wpkhAddress(publicKeyOf(key));

/** Two aopd replicas on one PostgreSQL database, as a deployment runs them behind one ingress. */
describe("the portal across two aopd replicas (PostgreSQL)", () => {
  let replicas: RunningAopd[] = [];
  beforeAll(async () => {
    const databaseUrl = await createTestDatabase("aopdreplicas");
    const config = { port: 0, databaseUrl, dataDir: "memory://", maxFailedAttempts: 4, rateLimitPerCredential: 0, rateLimitPerClient: 0 };
    replicas = [await startAopd({ config, insecureDevelopmentIdentity: true }), await startAopd({ config, insecureDevelopmentIdentity: true })];
  });
  afterAll(async () => {
    await Promise.all(replicas.map((replica) => replica.close()));
  });
  const on = (replica: number, path: string) => new URL(path, replicas[replica]!.url);
  const requestProof = async () => {
    const response = await fetch(replicas[0]!.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation($a: String!) { aopd { requestAoppProof(input: { customerId: "C", asset: DTI4H95J0R2X, expectedAddress: $a }) { portalUrl proof { message } } } }`,
        variables: { a: address },
      }),
    });
    const { data } = (await response.json()) as { data: { aopd: { requestAoppProof: { portalUrl: string; proof: { message: string } } } } };
    return { token: data.aopd.requestAoppProof.portalUrl.split("/").pop()!, message: data.aopd.requestAoppProof.proof.message };
  };
  const submit = (replica: number, token: string, signature: string) =>
    fetch(on(replica, `/portal/api/proof/${token}/signature`), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ signature }),
    });

  it("caps failed attempts for the proof, not per replica", async () => {
    const { token, message } = await requestProof();
    const wrong = signBip322PublicKeyHash(key, address, "a message nobody asked for");
    const statuses = [];
    for (const replica of [0, 1, 0, 1, 0, 1]) statuses.push((await submit(replica, token, wrong)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 409, 409]);
    const right = await submit(1, token, signBip322PublicKeyHash(key, address, message));
    expect([right.status, ((await right.json()) as { error: string }).error]).toEqual([409, "too_many_attempts"]);
  });

  it("a stream on one replica hears a signature accepted by the other; the retry on the first is the same success", async () => {
    const { token, message } = await requestProof();
    const events = readEventStream((await fetch(on(0, `/portal/api/proof/${token}/events`))).body!);
    expect((await events.next()).value).toMatchObject({ data: { status: "PENDING" } });
    const signature = signBip322PublicKeyHash(key, address, message);
    const callback = await fetch(on(1, `/aopp/callback/${token}`), { method: "POST", body: JSON.stringify({ version: 0, address, signature }) });
    expect(callback.status).toBe(204);
    expect((await events.next()).value).toMatchObject({ data: { status: "VERIFIED" } });
    expect((await events.next()).done).toBe(true);
    expect((await submit(0, token, signature)).status).toBe(200);
  });
});
