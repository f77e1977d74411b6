import pg from "pg";
import { pollUntil } from "@compliance-graph/test-kit";
import type { Replica } from "./replica.js";
import { ready, startReplicaStack, type ReplicaStackOptions } from "./start-replica-stack.js";
import { SteadyLoad } from "./steady-load.js";
import { RunFigures } from "./step-figures.js";

export interface ReplicaTestOptions extends ReplicaStackOptions {
  /** How long each calm step lasts, in seconds. */
  stepSeconds: number;
}

export interface ReplicaTestResult {
  runtime: string;
  steps: { step: string; seconds: number; answered: number; errors: Record<string, number>; secondsToFullThroughput?: number | null }[];
  baselinePerSecond: number;
  acceptedWrites: number;
  writesLost: number;
  eventsInLog: number;
  /** Per subscriber: the events of the log it never received, their places in the log (the first 10), and repeats. */
  subscribers: { missed: number; missedAt: number[]; duplicates: number }[];
}

/**
 * Two gateways and two aopd replicas behind HAProxy on one PostgreSQL database (with trpd and the development
 * identity provider), under a steady read, write and subscription load: first calm, then one aopd and one gateway
 * killed (SIGKILL) and started again, then every replica restarted in turn with SIGTERM, then calm again. Counts,
 * per step, the answers and the errors by code and the time until full throughput; at the end, the accepted writes
 * missing from the database and the proof events each subscriber missed after resuming.
 */
export async function runReplicaTest(options: ReplicaTestOptions): Promise<ReplicaTestResult> {
  const stack = await startReplicaStack(options);
  const { aopds, gateways, balancer, issuer } = stack;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const tokenEndpoint = `${issuer}/protocol/openid-connect/token`;
    let token = await fetchToken(tokenEndpoint);
    // Tokens live 300 s; a fresh one every minute keeps every request's token valid.
    const refresher = setInterval(
      () =>
        void fetchToken(tokenEndpoint).then(
          (fresh) => (token = fresh),
          () => undefined,
        ),
      60_000,
    );
    cleanups.push(async () => clearInterval(refresher));

    const figures = new RunFigures();
    const load = new SteadyLoad({ gateway: stack.gatewayUrl, token: () => token, figures });
    cleanups.push(() => load.close());
    figures.beginStep("calm");
    // An exact start: one proof written before the load, and the subscribers resume after its event. Subscribing
    // without a cursor would start "from the moment the subscription reaches aopd", which the first writes may beat.
    const startCursor = await writeOneAndReadLogEnd(load);
    await load.start(startCursor);
    await pause(options.stepSeconds);

    const restart = async (replica: Replica, signal: "SIGKILL" | "SIGTERM") => {
      await replica.stop(signal);
      await replica.start();
      await ready(replica);
      await balancer.waitUntilUp(replica.name);
    };
    figures.beginStep("aopd-1 killed (SIGKILL) and restarted");
    await restart(aopds[0]!, "SIGKILL");
    await pause(options.stepSeconds);
    figures.beginStep("gateway-1 killed (SIGKILL) and restarted");
    await restart(gateways[0]!, "SIGKILL");
    await pause(options.stepSeconds);
    figures.beginStep("rolling restart (SIGTERM): aopd-1, aopd-2, gateway-1, gateway-2");
    for (const replica of [...aopds, ...gateways]) await restart(replica, "SIGTERM");
    await pause(options.stepSeconds);
    figures.beginStep("calm again");
    await pause(options.stepSeconds);
    await load.stopRequests();
    figures.end();

    // Every event of the log, read through the API after the load: what each subscriber should have received.
    const logged = await readEventLog(load, startCursor);
    await pollUntil(
      "every subscriber receiving the log's last event",
      async () => load.subscribers.map((subscriber) => new Set(subscriber.received.map((event) => event.cursor))),
      (seen) => seen.every((cursors) => logged.every((cursor) => cursors.has(cursor))),
      { timeoutMs: 60_000, intervalMs: 500 },
    ).catch(() => undefined);
    const subscribers = load.subscribers.map((subscriber) => {
      const cursors = new Set(subscriber.received.map((event) => event.cursor));
      const missedAt = logged.flatMap((cursor, index) => (cursors.has(cursor) ? [] : [index]));
      return { missed: missedAt.length, missedAt: missedAt.slice(0, 10), duplicates: subscriber.received.length - cursors.size };
    });

    const accepted = [...load.accepted];
    const stored = await countStored(stack.databaseUrl, accepted);

    const calm = figures.steps[0]!;
    const baseline = figures.medianRate(calm.startedAt, calm.endedAt!);
    return {
      runtime: options.runtime,
      baselinePerSecond: baseline,
      steps: figures.steps.map((step) => ({
        step: step.step,
        seconds: Math.round((step.endedAt! - step.startedAt) / 100) / 10,
        answered: step.answered,
        errors: step.errors,
        ...(step === calm ? {} : { secondsToFullThroughput: figures.secondsUntilRate(step.startedAt, step.endedAt!, baseline) ?? null }),
      })),
      acceptedWrites: accepted.length,
      writesLost: accepted.length - stored,
      eventsInLog: logged.length,
      subscribers,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
    await stack.close();
  }
}

const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

async function fetchToken(tokenEndpoint: string): Promise<string> {
  const response = await fetch(tokenEndpoint, {
    method: "POST",
    body: new URLSearchParams({ client_id: "dev-api-client", client_secret: "dev-secret", grant_type: "client_credentials", scope: "openid" }),
  });
  if (!response.ok) throw new Error(`the token endpoint answered ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Requests one proof and returns the cursor of the log's last event once it is there. */
async function writeOneAndReadLogEnd(load: SteadyLoad): Promise<string> {
  const { body } = await load.post('mutation { aopd { requestAoppProof(input: { customerId: "REPLICA-START", asset: DTI4H95J0R2X }) { proof { id } } } }');
  if (body?.errors) throw new Error(`the first write failed: ${JSON.stringify(body.errors)}`);
  // Events are numbered by the event pump just after their commit: wait for this one's number.
  const events = await pollUntil(
    "the first write's event in the log",
    () => readEventLog(load, null),
    (found) => found.length > 0,
    { timeoutMs: 60_000 },
  );
  return events.at(-1)!;
}

/** The event cursors of the proof event log after `after`, oldest first, read through the gateway. */
async function readEventLog(load: SteadyLoad, from: string | null): Promise<string[]> {
  const cursors: string[] = [];
  let after: string | null = from;
  for (;;) {
    const { body } = await load.post("query Log($after: String) { aopd { proofEvents(after: $after, limit: 1000) { events { cursor } endCursor hasMore } } }", {
      after,
    });
    const page = (body?.data as { aopd: { proofEvents: { events: { cursor: string }[]; endCursor: string | null; hasMore: boolean } } } | undefined)?.aopd
      .proofEvents;
    if (!page) throw new Error(`reading the event log failed: ${JSON.stringify(body?.errors)}`);
    cursors.push(...page.events.map((event) => event.cursor));
    if (!page.hasMore || !page.endCursor) return cursors;
    after = page.endCursor;
  }
}

/** How many of the accepted proofs the database holds, read directly (not through the replicas under test). */
async function countStored(databaseUrl: string, ids: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>("SELECT count(*) FROM aopd_proof WHERE id::text = ANY($1::text[])", [ids]);
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}
