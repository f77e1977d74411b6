import { describe, expect, it } from "vitest";
import { portalApi, requestSignatureProof } from "../support/portal-client.js";
import { readEventStream } from "../support/read-event-stream.js";
import { startTestAopd } from "../support/start-test-aopd.js";
import { databaseDrivers } from "../support/test-database.js";

describe.each(databaseDrivers)("faults behind the public routes on %s", (driver) => {
  it("answers service_unavailable in the routes' shape when the database is gone, never its internals", async () => {
    const aopd = await startTestAopd(driver);
    try {
      const { token } = await requestSignatureProof(aopd, {});
      await aopd.services.db.destroy();
      const view = await portalApi(aopd, token);
      expect(view.status).toBe(503);
      expect(view.body).toEqual({ error: "service_unavailable", reason: "The service cannot answer right now; try again in a moment." });
      const callback = await fetch(new URL(`/aopp/callback/${token}`, aopd.url), {
        method: "POST",
        body: JSON.stringify({ version: 0, address: "x", signature: "y" }),
      });
      expect([callback.status, await callback.json()]).toEqual([
        503,
        { error: "service_unavailable", reason: "The service cannot answer right now; try again in a moment." },
      ]);
    } finally {
      await aopd.close().catch(() => {});
    }
  });

  it("ends open event streams when aopd shuts down, and shuts down", async () => {
    const aopd = await startTestAopd(driver);
    const { token } = await requestSignatureProof(aopd, {});
    const response = await fetch(new URL(`/portal/api/proof/${token}/events`, aopd.url));
    const events = readEventStream(response.body!);
    expect((await events.next()).value).toMatchObject({ event: "proof", data: { status: "PENDING" } });
    await aopd.close();
    expect((await events.next()).done).toBe(true);
  });
});
