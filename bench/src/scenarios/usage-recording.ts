import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildSchema, parse, type OperationDefinitionNode } from "graphql";
import { createOperationUsage, createUsageRecorder, GatewayMetrics } from "@compliance-graph/gateway";
import { createInternalTokenMinter, generateInternalSigningKey } from "@compliance-graph/identity";
import { createLogger } from "@compliance-graph/process-shell";
import type { BenchmarkScenario } from "../benchmark-report.js";
import { gatewayQueries } from "../support/gateway-queries.js";
import { SeededRandom } from "@compliance-graph/aopd/internals";

const supergraphPath = fileURLToPath(new URL("../../../supergraph.graphql", import.meta.url));
const statuses = ["PENDING", "SUBMITTED", "VERIFIED", "FAILED", "EXPIRED"];
const sortFields = ["CREATED_AT", "UPDATED_AT", "STATUS", "CUSTOMER_ID"];

/**
 * What usage recording adds to a request at the gateway (issue 34's aim: at most 3% of its cost),
 * measured as CPU time in process rather than as requests/s, which on a shared machine moved by
 * more than the whole aim between two runs. Each request of a seeded rotation is recorded as the
 * gateway's plugin records it (usage/operation-usage.ts: the operation's hash and coordinates once
 * per document, the variables' coordinates and the count each time) into the real recorder, by one
 * of 50 clients, with varied filters, sort orders and pages.
 */
export const usageRecordingScenario: BenchmarkScenario = {
  name: "usage-recording",
  async run({ quick }) {
    const schema = buildSchema(await readFile(supergraphPath, "utf8"));
    const random = new SeededRandom(34);
    const documents = gatewayQueries.map((query) => {
      const document = parse(query.query);
      return { document, operation: document.definitions[0] as OperationDefinitionNode };
    });
    const requests = Array.from({ length: 4_000 }, () => {
      const chosen = documents[random.int(documents.length)]!;
      const filter = { is: { any: { status: statuses.filter(() => random.next() < 0.5) } } };
      const sortOrder = [{ field: sortFields[random.int(sortFields.length)], direction: random.next() < 0.5 ? "ASC" : "DESC" }];
      return { ...chosen, variables: { filter, sortOrder }, client: `bench-officer-${random.int(50)}` };
    });
    // The registry's `POST /usage`, taking every report: the recorder flushes to it as in a gateway.
    const sink = createServer((request, response) => request.resume().on("end", () => response.writeHead(202).end("{}")));
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
    const key = await generateInternalSigningKey();
    const recorder = createUsageRecorder({
      usageUrl: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/usage`,
      mint: await createInternalTokenMinter({ privateJwk: key.privateJwk }),
      logger: createLogger("bench", "silent"),
      metrics: new GatewayMetrics(),
    });
    const usage = createOperationUsage(recorder);
    const total = quick ? 200_000 : 2_000_000;
    let cpuMicroseconds = 0;
    try {
      // The first of each document computes its hash and coordinates; measured on its own.
      const first = process.cpuUsage();
      for (const { document, operation } of documents) usage.record({ schema, document, operation, variables: undefined, client: "warm-up" });
      const firstUsed = process.cpuUsage(first);
      for (let done = 0; done < total; done += 10_000) {
        const before = process.cpuUsage();
        for (let index = done; index < done + 10_000; index += 1) usage.record({ schema, ...requests[index % requests.length]! });
        const used = process.cpuUsage(before);
        cpuMicroseconds += used.user + used.system;
        // Between chunks the recorder's flush timer may run, as it does between a gateway's requests.
        await new Promise((resolve) => setImmediate(resolve));
      }
      const perRequestNs = (cpuMicroseconds * 1_000) / total;
      const firstPerDocumentUs = (firstUsed.user + firstUsed.system) / documents.length;
      console.log(JSON.stringify({ scenario: "usage-recording", perRequestNs: Math.round(perRequestNs), firstPerDocumentUs: Math.round(firstPerDocumentUs) }));
      return [
        {
          title: "Usage recording: CPU per request",
          method: `${total.toLocaleString("en")} requests recorded in process, a seeded rotation of 4,000 (the gateway comparison's three operations, random status filters and sort orders, 50 clients), CPU time (user + system) of recording alone, in chunks of 10,000 between which the recorder may flush to a local sink.`,
          columns: ["what", "CPU"],
          rows: [
            ["per request (operation known: variables' coordinates, one tally)", `${perRequestNs.toFixed(0)} ns`],
            ["per new document (its hash and coordinates, once)", `${firstPerDocumentUs.toFixed(0)} µs`],
          ],
          notes: [
            "Aim (issue 34): recording costs at most 3% of a request. Compare with the gateway's CPU per request in the gateway comparison (docs/benchmarks.md): milliseconds per request.",
          ],
        },
      ];
    } finally {
      await recorder.close();
      await new Promise<void>((resolve) => sink.close(() => resolve()));
    }
  },
};
