/**
 * One running copy of a deployable the replica test starts, kills and restarts, the same way whether it is a
 * process or a container: the test decides what happens to it, the runtime how.
 */
export interface Replica {
  /** `gateway-1`, `aopd-2`, ... */
  readonly name: string;
  /** `http://127.0.0.1:<port>`: where its probes answer. */
  readonly base: string;
  /** Starts it (again, after a stop); resolves once it is running, not yet once it is ready. */
  start(): Promise<void>;
  /** Sends the signal and resolves once it has exited (SIGTERM: after its drain; bounded by `timeoutMs`). */
  stop(signal: "SIGKILL" | "SIGTERM", timeoutMs?: number): Promise<void>;
  /** Removes what is left (the container) at the end of the test. */
  dispose(): Promise<void>;
}

/** How a runtime makes a replica: the deployable, its name, its port and its environment. */
export type ReplicaFactory = (deployable: Deployable, name: string, port: number, env: Record<string, string>) => Replica;

export type Deployable = "gateway" | "aopd" | "trpd";

/** Each deployable's entry in the repository, as its image runs it. */
export const deployableEntries: Record<Deployable, string> = {
  gateway: "gateway/src/main.ts",
  aopd: "subgraphs/aopd/src/main.ts",
  trpd: "subgraphs/trpd/src/main.ts",
};
