export interface TrpdConfig {
  /** `TRPD_PORT`. @default 4002 */
  port: number;
  /** `TRPD_HOST`. @default "127.0.0.1" */
  host: string;
  /** `NODE_ENV=production`: requires identity verification, hides introspection. */
  production: boolean;
}

export function trpdConfigFromEnv(env: NodeJS.ProcessEnv = process.env): TrpdConfig {
  const port = Number(env.TRPD_PORT ?? 4002);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`TRPD_PORT must be a port number; got ${JSON.stringify(env.TRPD_PORT)}.`);
  return { port, host: env.TRPD_HOST ?? "127.0.0.1", production: env.NODE_ENV === "production" };
}
