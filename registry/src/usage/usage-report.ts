import { RegistryError } from "../registry-error.js";

/** One gateway's count of one operation of one client in one hour (docs/schema-registry.md, `POST /usage`). */
export interface UsageReport {
  operationHash: string;
  client: string;
  hour: Date;
  count: number;
  coordinates: string[];
}

/** Most reports in one `POST /usage`. */
export const maxReportsPerRequest = 1_000;
/** Most coordinates of one operation. */
export const maxCoordinatesPerReport = 500;

const coordinatePattern = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,2}$/;

/** Reads a `POST /usage` body; a wrong one is refused whole (`invalid_input` naming the field), nothing of it kept. */
export function parseUsageReports(body: unknown): UsageReport[] {
  const fail = (where: string, allowed: string): never => {
    throw new RegistryError("invalid_input", `${where} ${allowed}`);
  };
  const reports = (body as { reports?: unknown } | undefined)?.reports;
  if (!Array.isArray(reports)) return fail("reports", "must be a list of usage reports.");
  if (reports.length > maxReportsPerRequest) fail("reports", `must hold at most ${maxReportsPerRequest} reports; send more requests.`);
  return reports.map((raw: unknown, index): UsageReport => {
    const at = `reports[${index}]`;
    if (raw === null || typeof raw !== "object") return fail(at, "must be an object.");
    const { operationHash, client, hour, count, coordinates } = raw as Record<string, unknown>;
    if (typeof operationHash !== "string" || !/^[0-9a-f]{16,128}$/.test(operationHash))
      fail(`${at}.operationHash`, "must be a lower-case hex hash (16 to 128 digits).");
    if (typeof client !== "string" || client === "" || client.length > 200) fail(`${at}.client`, "must be the caller's azp (1 to 200 characters).");
    const start = typeof hour === "string" ? new Date(hour) : undefined;
    if (!start || Number.isNaN(start.getTime()) || start.getTime() % 3_600_000 !== 0)
      fail(`${at}.hour`, "must be the ISO start of a UTC hour, such as 2026-11-27T15:00:00.000Z.");
    if (typeof count !== "number" || !Number.isSafeInteger(count) || count < 1) fail(`${at}.count`, "must be a whole number of at least 1.");
    if (
      !Array.isArray(coordinates) ||
      coordinates.length > maxCoordinatesPerReport ||
      coordinates.some((coordinate) => typeof coordinate !== "string" || !coordinatePattern.test(coordinate))
    ) {
      fail(`${at}.coordinates`, `must be a list of at most ${maxCoordinatesPerReport} schema coordinates (Type, Type.field, Type.field.argument).`);
    }
    return {
      operationHash: operationHash as string,
      client: client as string,
      hour: start as Date,
      count: count as number,
      coordinates: [...new Set(coordinates as string[])].sort(),
    };
  });
}
