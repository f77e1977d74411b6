import { postGraphQL } from "@compliance-graph/test-kit";

/** One request of the load that did not answer 200 with data and no error. */
export interface LoadFailure {
  gateway: string;
  query: string;
  status: number;
  body: unknown;
}

export interface SteadyLoad {
  /** Requests answered so far, failed or not. */
  readonly count: number;
  readonly failures: LoadFailure[];
  /** Resolves once `count` requests in all have been answered. @default timeout 120_000 // 2 minutes */
  completed(count: number, timeoutMs?: number): Promise<void>;
  /** Lets each loop finish its request in flight, then resolves. */
  stop(): Promise<void>;
}

/**
 * Varied operations on the platform's own domains (aopd's stand-in, trpd): one subgraph each, both
 * at once, a join across them, variables, fragments and aliases, so a plan of every shape is in
 * flight when the supergraph changes.
 */
const operations: { query: string; variables?: Record<string, unknown> }[] = [
  { query: "{ aopd { proofs(limit: 2) { id address } } }" },
  { query: "{ trpd { vasps { name } } }" },
  {
    query: "query Both($limit: Int!) { aopd { proofs(limit: $limit) { id ... on AopdSatoshiProof { amount } } } trpd { vasps { name } } }",
    variables: { limit: 1 },
  },
  { query: "{ aopd { proofs(limit: 2) { id travelRuleTransfers { counterpartyVasp direction } } } }" },
  { query: "fragment Seen on AopdProof { id createdAt } { first: aopd { proofs(limit: 1) { ...Seen } } second: aopd { proofs(limit: 2) { customerId } } }" },
];

/**
 * A steady load through the gateways: `loops` concurrent loops, each sending one operation after
 * another, cycling through the operations and the gateways. A request fails when it does not answer
 * 200 with data and no error; every failure is kept with what was answered.
 */
export function startSteadyLoad(options: { gateways: string[]; token: string; loops: number }): SteadyLoad {
  let count = 0;
  let stopping = false;
  const failures: LoadFailure[] = [];
  const waiters: (() => void)[] = [];
  const loop = async (offset: number) => {
    for (let index = offset; !stopping; index += 1) {
      const operation = operations[index % operations.length] as (typeof operations)[number];
      const gateway = options.gateways[index % options.gateways.length] as string;
      try {
        const { status, body } = await postGraphQL(gateway, operation.query, options.token, operation.variables);
        if (status !== 200 || body.errors !== undefined || body.data === undefined || body.data === null)
          failures.push({ gateway, query: operation.query, status, body });
      } catch (error) {
        failures.push({ gateway, query: operation.query, status: 0, body: String(error) });
      }
      count += 1;
      for (const wake of waiters.splice(0)) wake();
    }
  };
  const running = Array.from({ length: options.loops }, (_, offset) => loop(offset));
  return {
    get count() {
      return count;
    },
    failures,
    async completed(target, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      while (count < target) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the load answered ${count} requests, not ${target}, within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    async stop() {
      stopping = true;
      await Promise.all(running);
    },
  };
}
