import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/**
 * The load generator of a varied workload, in a process of its own (as `runAutocannon` runs the
 * CLI): `node --import tsx varied-load-process.ts <plan.json>`. The plan holds the URL, the
 * connections, the duration, the headers every request sends, and the requests, each a body and
 * its `authorization`. The connections take the requests in turn from one shared rotation, so
 * requests in flight at one moment are always different ones. Prints autocannon's result as JSON.
 */
export interface VariedLoadPlan {
  url: string;
  connections: number;
  durationSeconds: number;
  headers: Record<string, string>;
  requests: { body: string; authorization?: string }[];
}

const plan = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as VariedLoadPlan;
let next = 0;
const result = await autocannon({
  url: plan.url,
  connections: plan.connections,
  duration: plan.durationSeconds,
  method: "POST",
  headers: plan.headers,
  requests: [
    {
      setupRequest: (request) => {
        const chosen = plan.requests[next % plan.requests.length]!;
        next += 1;
        return {
          ...request,
          method: "POST",
          body: chosen.body,
          headers: { ...plan.headers, ...(chosen.authorization ? { authorization: chosen.authorization } : {}) },
        };
      },
    },
  ],
});
process.stdout.write(JSON.stringify(result));
