import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { containerReplica } from "./container-replica.js";
import { processReplica } from "./process-replica.js";
import { runReplicaTest, type ReplicaTestResult } from "./run-replica-test.js";

/**
 * `npm run test:deploy`'s replica test (after deploy/podman/build-images.sh when podman runs it):
 * REPLICA_TEST_RUNTIME `podman` (the images `compliance-graph/<name>:${IMAGE_TAG:-test}`) or `processes`
 * (default: podman when installed). Writes its figures to REPLICA_TEST_REPORT (default
 * test-artifacts/replica-test.json) and fails when an accepted write is lost, a subscriber missed an event, or nothing
 * is answered after the restarts. The times until full throughput are figures only (a busy machine sets them as much
 * as the replicas do).
 *
 * Other variables: DATABASE_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres), REPLICA_TEST_DB_PREFIX
 * (default `replica_test`), REPLICA_TEST_BASE_PORT (default: free ports), REPLICA_TEST_STEP_SECONDS (default 10).
 */
process.env.APOLLO_TELEMETRY_DISABLED = "1";
const podmanInstalled = (() => {
  try {
    execFileSync("podman", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();
const runtime = (process.env.REPLICA_TEST_RUNTIME ?? (podmanInstalled ? "podman" : "processes")) as "podman" | "processes";
if (runtime !== "podman" && runtime !== "processes") {
  console.error(`REPLICA_TEST_RUNTIME must be podman or processes; got ${JSON.stringify(runtime)}.`);
  process.exit(2);
}
const imageTag = process.env.IMAGE_TAG ?? "test";
const started = Date.now();
const result = await runReplicaTest({
  runtime,
  makeReplica: runtime === "podman" ? containerReplica(imageTag, `replica-test-${process.pid}`) : processReplica,
  adminDatabaseUrl: process.env.DATABASE_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  databasePrefix: process.env.REPLICA_TEST_DB_PREFIX ?? "replica_test",
  ...(process.env.REPLICA_TEST_BASE_PORT ? { basePort: Number(process.env.REPLICA_TEST_BASE_PORT) } : {}),
  stepSeconds: Number(process.env.REPLICA_TEST_STEP_SECONDS ?? 10),
  imageTag,
});

const report = process.env.REPLICA_TEST_REPORT ?? "test-artifacts/replica-test.json";
mkdirSync(report.replace(/\/[^/]*$/, ""), { recursive: true });
writeFileSync(report, `${JSON.stringify(result, null, 2)}\n`);
console.log(describe(result, (Date.now() - started) / 1000));

const failures = [
  ...(result.writesLost > 0 ? [`${result.writesLost} accepted writes are not in the database`] : []),
  ...result.subscribers.flatMap((subscriber, index) =>
    subscriber.missed > 0 ? [`subscriber ${index + 1} missed ${subscriber.missed} events (at ${subscriber.missedAt.join(", ")} of the log)`] : [],
  ),
  ...(result.acceptedWrites === 0 ? ["no write was accepted at all"] : []),
  // Served again after everything: the last calm step has answers. How fast throughput came back is a figure, not a
  // verdict (a busy machine decides it as much as the replicas do).
  ...((result.steps.at(-1)?.answered ?? 0) === 0 ? ["nothing was answered after the restarts"] : []),
];
// Three checks (no write lost, some write accepted, served after the restarts) and one per subscriber (nothing missed).
const checks = 3 + result.subscribers.length;
console.log(`replica: ${checks - failures.length} passed, ${failures.length} failed`);
if (failures.length > 0) {
  console.error(`replica test failed: ${failures.join("; ")}`);
  process.exit(1);
}

function describe(run: ReplicaTestResult, seconds: number): string {
  const rows = run.steps.map((step) => {
    const errors =
      Object.entries(step.errors)
        .map(([code, count]) => `${code} ${count}`)
        .join(", ") || "none";
    const recovery =
      step.secondsToFullThroughput === undefined
        ? "(baseline)"
        : step.secondsToFullThroughput === null
          ? "never"
          : `${step.secondsToFullThroughput.toFixed(1)} s`;
    return `| ${step.step} | ${step.seconds} s | ${step.answered} | ${errors} | ${recovery} |`;
  });
  return [
    `replica test (${run.runtime}), ${seconds.toFixed(0)} s; full throughput: ${run.baselinePerSecond} answers/s (90% of it for 3 s counts as recovered)`,
    "",
    "| step | length | requests answered | errors by code | time to full throughput |",
    "| --- | --- | --- | --- | --- |",
    ...rows,
    "",
    `accepted writes: ${run.acceptedWrites}, lost: ${run.writesLost}`,
    `proof events in the log: ${run.eventsInLog}; subscribers missed after resuming: ${run.subscribers.map((s) => s.missed).join(", ")} (duplicates: ${run.subscribers.map((s) => s.duplicates).join(", ")})`,
  ].join("\n");
}
