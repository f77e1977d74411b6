/** The registry's settings (`registryConfigFromEnv`). */
export interface RegistryConfig {
  /** `REGISTRY_PORT`. @default 4010 */
  port: number;
  /** `REGISTRY_HOST`. @default "127.0.0.1" */
  host: string;
  /** `NODE_ENV=production`: refuses a generated signing key and the insecure identity. */
  production: boolean;
  /** `REGISTRY_DATABASE_URL`; unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** `REGISTRY_DATA_DIR`. @default ".data/registry" */
  dataDir: string;
  /** `REGISTRY_SIGNING_KEY`: private EC P-256 JWK or PKCS#8 PEM. Required in production. */
  signingKey: string | undefined;
  /** `REGISTRY_SIGNING_KEY_ID`: the `kid` of a PEM key. @default derived from the key */
  signingKeyId: string | undefined;
  /** `REGISTRY_RETIRED_PUBLIC_JWKS`: public keys of earlier signing keys, still published so that older versions verify (rotation). */
  retiredPublicKeys: string | undefined;
  /** `GRAPH_USAGE_RETENTION_DAYS`: recorded usage kept, and the window a check looks at. @default 30 // days */
  usageRetentionDays: number;
}

export function registryConfigFromEnv(env: NodeJS.ProcessEnv = process.env): RegistryConfig {
  const whole = (name: string, fallback: number, minimum: number): number => {
    const value = env[name];
    if (value === undefined || value === "") return fallback;
    if (!/^\d+$/.test(value) || Number(value) < minimum)
      throw new Error(`${name} must be a whole number of at least ${minimum}; got ${JSON.stringify(value)}.`);
    return Number(value);
  };
  return {
    port: whole("REGISTRY_PORT", 4010, 0),
    host: env.REGISTRY_HOST ?? "127.0.0.1",
    production: env.NODE_ENV === "production",
    databaseUrl: env.REGISTRY_DATABASE_URL || undefined,
    dataDir: env.REGISTRY_DATA_DIR ?? ".data/registry",
    signingKey: env.REGISTRY_SIGNING_KEY || undefined,
    signingKeyId: env.REGISTRY_SIGNING_KEY_ID || undefined,
    retiredPublicKeys: env.REGISTRY_RETIRED_PUBLIC_JWKS || undefined,
    usageRetentionDays: whole("GRAPH_USAGE_RETENTION_DAYS", 30, 1),
  };
}
