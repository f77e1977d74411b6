import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { quotaSettingsFromEnv } from "../src/quotas/quota-settings.js";

describe("GATEWAY_QUOTA_* settings", () => {
  it("sets no quota (and no quota work) when nothing is configured", () => {
    expect(quotaSettingsFromEnv({}, true)).toBeUndefined();
    expect(quotaSettingsFromEnv({ GATEWAY_QUOTA_CLIENT_REQUESTS: "0" }, false)).toBeUndefined();
  });

  it("reads the defaults and the per-client map, a client's 0 lifting a default", () => {
    const settings = quotaSettingsFromEnv(
      {
        GATEWAY_QUOTA_CLIENT_REQUESTS: "600",
        GATEWAY_QUOTA_SUBJECT_COST: "5000",
        GATEWAY_QUOTA_WINDOW_SECONDS: "60",
        GATEWAY_QUOTA_CLIENTS: '{"batch-job":{"clientRequests":0,"clientCost":100000}}',
        GATEWAY_QUOTA_REPLICAS: "3",
      },
      false,
    );
    expect(settings).toEqual({
      defaults: { clientRequests: 600, subjectCost: 5000, windowSeconds: 60 },
      clients: { "batch-job": { clientRequests: 0, clientCost: 100000 } },
      replicas: 3,
      syncIntervalMs: 250,
    });
  });

  it("reads the per-client map from a file", async () => {
    const folder = await mkdtemp(join(tmpdir(), "quota-settings-"));
    try {
      const path = join(folder, "quotas.json");
      await writeFile(path, '{"partner":{"subjectRequests":30,"windowSeconds":10}}');
      expect(quotaSettingsFromEnv({ GATEWAY_QUOTA_CLIENTS_FILE: path }, false)?.clients).toEqual({ partner: { subjectRequests: 30, windowSeconds: 10 } });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("refuses bad input, naming the setting and what is allowed", () => {
    expect(() => quotaSettingsFromEnv({ GATEWAY_QUOTA_CLIENT_REQUESTS: "many" }, false)).toThrow(
      'GATEWAY_QUOTA.clientRequests must be a non-negative integer (0: no limit); got "many".',
    );
    expect(() => quotaSettingsFromEnv({ GATEWAY_QUOTA_CLIENTS: '{"partner":{"clientRequest":5}}' }, false)).toThrow(
      "GATEWAY_QUOTA_CLIENTS.partner.clientRequest is not a quota; allowed: clientRequests, subjectRequests, clientCost, subjectCost, windowSeconds.",
    );
    expect(() => quotaSettingsFromEnv({ GATEWAY_QUOTA_CLIENTS: "partner=5" }, false)).toThrow(/GATEWAY_QUOTA_CLIENTS must be JSON/);
    expect(() => quotaSettingsFromEnv({ GATEWAY_QUOTA_CLIENTS: "{}", GATEWAY_QUOTA_CLIENTS_FILE: "/x.json" }, false)).toThrow(
      "Set GATEWAY_QUOTA_CLIENTS or GATEWAY_QUOTA_CLIENTS_FILE, not both.",
    );
  });

  it("refuses in production a sharing database reached without verified TLS", () => {
    const env = { GATEWAY_QUOTA_CLIENT_REQUESTS: "600" };
    expect(() => quotaSettingsFromEnv({ ...env, GATEWAY_QUOTA_DATABASE_URL: "postgres://gateway@db.internal/quotas" }, true)).toThrow(/sslmode=verify-full/);
    expect(() => quotaSettingsFromEnv({ ...env, GATEWAY_QUOTA_DATABASE_URL: "postgres://gateway@db.internal/quotas?sslmode=require" }, true)).toThrow(
      /sslmode=verify-full/,
    );
    expect(
      quotaSettingsFromEnv({ ...env, GATEWAY_QUOTA_DATABASE_URL: "postgres://gateway@db.internal/quotas?sslmode=verify-full" }, true)?.databaseUrl,
    ).toContain("verify-full");
    expect(quotaSettingsFromEnv({ ...env, GATEWAY_QUOTA_DATABASE_URL: "postgres://gateway@db.internal/quotas" }, false)?.databaseUrl).toBe(
      "postgres://gateway@db.internal/quotas",
    );
  });
});
