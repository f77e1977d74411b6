import { fileURLToPath } from "node:url";
import { generateInternalSigningKey } from "@compliance-graph/identity";
import { type BenchProcess, fetchToken, freePort, startProcess } from "@compliance-graph/test-kit";

const supergraphPath = fileURLToPath(new URL("../../../supergraph.graphql", import.meta.url));

export interface BenchStack {
  /** The gateway's base URL (`/graphql`, `/health`, the development provider under `/auth`). */
  base: string;
  gateway: BenchProcess;
  aopd: BenchProcess;
  /** aopd's and trpd's base URLs (`http://127.0.0.1:<port>`). */
  aopdBase: string;
  trpdBase: string;
  /** An access token of the development provider's API client (every role). */
  token: string;
  stop(): Promise<void>;
}

/**
 * The whole stack as in production, each deployable in its own process: aopd on `databaseUrl`,
 * trpd, and the gateway with the development identity provider, composed from the committed
 * supergraph. `env` goes to all three, `aopdEnv` to aopd.
 */
export async function startBenchStack(
  databaseUrl: string,
  options: { aopdEnv?: Record<string, string>; env?: Record<string, string> } = {},
): Promise<BenchStack> {
  const env = options.env ?? {};
  const key = await generateInternalSigningKey();
  const publicJwks = JSON.stringify({ keys: [key.publicJwk] });
  const [aopdPort, trpdPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const processes: BenchProcess[] = [];
  const stop = async () => {
    for (const child of processes.reverse()) await child.stop();
  };
  try {
    const aopd = await startProcess(
      "subgraphs/aopd/src/main.ts",
      {
        ...env,
        AOPD_PORT: String(aopdPort),
        DATABASE_URL: databaseUrl,
        INTERNAL_JWT_PUBLIC_JWKS: publicJwks,
        AOPD_EXPIRY_INTERVAL_SECONDS: "0",
        ...options.aopdEnv,
      },
      `http://127.0.0.1:${aopdPort}/health/ready`,
    );
    processes.push(aopd);
    processes.push(
      await startProcess(
        "subgraphs/trpd/src/main.ts",
        { ...env, TRPD_PORT: String(trpdPort), INTERNAL_JWT_PUBLIC_JWKS: publicJwks },
        `http://127.0.0.1:${trpdPort}/health/ready`,
      ),
    );
    const base = `http://127.0.0.1:${gatewayPort}`;
    const gateway = await startProcess(
      "gateway/src/main.ts",
      {
        ...env,
        PORT: String(gatewayPort),
        DEV_IDENTITY_PROVIDER: "true",
        PUBLIC_BASE_URL: base,
        INTERNAL_JWT_PRIVATE_JWK: JSON.stringify(key.privateJwk),
        SUPERGRAPH_PATH: supergraphPath,
        SUBGRAPH_AOPD_URL: `http://127.0.0.1:${aopdPort}/graphql`,
        SUBGRAPH_TRPD_URL: `http://127.0.0.1:${trpdPort}/graphql`,
      },
      `${base}/health/ready`,
    );
    processes.push(gateway);
    const token = await fetchToken(`${base}/auth/realms/dev/protocol/openid-connect/token`, "dev-api-client", "dev-secret");
    return { base, gateway, aopd, aopdBase: `http://127.0.0.1:${aopdPort}`, trpdBase: `http://127.0.0.1:${trpdPort}`, token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
