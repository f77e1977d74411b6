import { readFileSync } from "node:fs";
import { parse, print, Kind, graphql } from "graphql";
import { describe, expect, it } from "vitest";
import { requiresRoleDirectiveSdl } from "@compliance-graph/identity";
import { buildTrpdSchema, trpdSchemaFile, transfersForAddress } from "../src/index.js";

describe("trpd schema", () => {
  it("defines @requiresRole exactly as packages/identity does", () => {
    const definitionIn = (sdl: string) => {
      const found = parse(sdl).definitions.find((definition) => definition.kind === Kind.DIRECTIVE_DEFINITION);
      return found ? print(found) : undefined;
    };
    expect(definitionIn(readFileSync(trpdSchemaFile, "utf8"))).toBe(definitionIn(requiresRoleDirectiveSdl));
  });

  it("answers trpd { vasps { name } } for a caller with travel-rule:read", async () => {
    const result = await graphql({
      schema: buildTrpdSchema(),
      source: "{ trpd { vasps { name } } }",
      contextValue: { identity: { roles: ["travel-rule:read"] } },
    });
    expect(result.errors).toBeUndefined();
    expect((result.data as { trpd: { vasps: { name: string }[] } }).trpd.vasps.map((vasp) => vasp.name)).toContain("Kraken");
  });

  it("refuses trpd fields without travel-rule:read, naming the role", async () => {
    const result = await graphql({ schema: buildTrpdSchema(), source: "{ trpd { vasps { name } } }", contextValue: { identity: { roles: ["proofs:read"] } } });
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", requiredRole: "travel-rule:read" });
    expect(result.errors?.[0]?.message).toBe('Trpd.vasps requires the role "travel-rule:read".');
  });

  it("derives the same transfers for the same address", () => {
    const address = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";
    expect(transfersForAddress(address)).toEqual(transfersForAddress(address));
    for (const transfer of transfersForAddress(address)) expect(transfer.address).toBe(address);
  });
});
