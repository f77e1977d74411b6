import type { AddressInfo } from "node:net";
import { createBoundedHttpServer, sendJson } from "@compliance-graph/process-shell";
import { createDevIdentityProvider, type DevIdentityProvider, type DevIdentityProviderOptions } from "./create-dev-identity-provider.js";

export interface RunningDevIdentityProvider extends DevIdentityProvider {
  close(): Promise<void>;
}

/**
 * The development identity provider on a server of its own (tests, or a separate local process);
 * `npm start` instead mounts it on the gateway's port. Listens first, so that with port 0 the
 * issuer URL carries the port actually taken.
 */
export async function startDevIdentityProvider(
  options: Omit<DevIdentityProviderOptions, "baseUrl"> & {
    port?: number;
    host?: string;
    /** The base URL its issuer carries, when clients reach it by another name than `host` (a container listening on 0.0.0.0). @default `http://<host>:<port>` */
    publicUrl?: string;
  } = {},
): Promise<RunningDevIdentityProvider> {
  let provider: DevIdentityProvider | undefined;
  // Bounded like every listener (HTTP_* limits): `npm run dev-idp` is reachable by whoever reaches its port.
  const { server } = createBoundedHttpServer((request, response) => {
    if (!provider?.handle(request, response)) sendJson(response, 404, { error: "not found" });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  try {
    provider = await createDevIdentityProvider({ ...options, baseUrl: options.publicUrl?.replace(/\/+$/, "") ?? `http://${host}:${port}` });
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    ...provider,
    handle: provider.handle.bind(provider),
    rotateSigningKey: provider.rotateSigningKey.bind(provider),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
