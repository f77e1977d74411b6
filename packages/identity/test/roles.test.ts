import { buildSchema, graphql, parse } from "graphql";
import { describe, expect, it } from "vitest";
import {
  bearerTokenFrom,
  enforceRequiredRoles,
  ExpiringCache,
  findMissingRole,
  identityFromClaims,
  keycloakRoleSources,
  parseRoleSources,
  RequiredRoles,
  requiresRoleDirectiveSdl,
} from "../src/index.js";

const sdl = `${requiresRoleDirectiveSdl}
type Query { area: Area! open: String }
type Area @requiresRole(role: "proofs:read") { items: [Item!]! export: String! @requiresRole(role: "proofs:export") }
interface Item { id: ID! }
type Plain implements Item { id: ID! }
type Secret implements Item @requiresRole(role: "travel-rule:read") { id: ID! }
`;

/** The roles a served supergraph would declare in these tests. */
const declared = new Set(["proofs:read", "proofs:export", "proofs:write", "travel-rule:read"]);
const isDeclared = (role: string) => declared.has(role);

describe("the role model", () => {
  it("takes roles from realm_access and from the configured clients' resource_access only", () => {
    const identity = identityFromClaims(
      {
        sub: "sa-1",
        azp: "dev-api-client",
        preferred_username: "service-account-dev-api-client",
        realm_access: { roles: ["proofs:read", "offline_access"] },
        resource_access: { "compliance-graph": { roles: ["proofs:export"] }, other: { roles: ["travel-rule:read"] } },
      },
      keycloakRoleSources(["compliance-graph"]),
      isDeclared,
    );
    expect(identity).toEqual({
      subject: "sa-1",
      client: "dev-api-client",
      username: "service-account-dev-api-client",
      roles: ["proofs:export", "proofs:read"],
    });
  });

  it("takes roles from the sources other providers use, and only from those configured", () => {
    const claims = {
      sub: "auth0|42",
      client_id: "spa",
      permissions: ["proofs:read"],
      scope: "openid proofs:export",
      roles: ["travel-rule:read"],
      groups: ["proofs:write"],
      realm_access: { roles: ["proofs:write"] },
    };
    const rolesFrom = (sources: string) => identityFromClaims(claims, parseRoleSources(sources), isDeclared).roles;
    expect(rolesFrom("permissions")).toEqual(["proofs:read"]);
    expect(rolesFrom("scope")).toEqual(["proofs:export"]);
    expect(rolesFrom("roles")).toEqual(["travel-rule:read"]);
    expect(rolesFrom("claim:groups")).toEqual(["proofs:write"]);
    expect(rolesFrom("permissions, scope")).toEqual(["proofs:export", "proofs:read"]);
    expect(identityFromClaims(claims, parseRoleSources("permissions"), isDeclared).client).toBe("spa");
    expect(() => parseRoleSources("groups")).toThrow(
      /"groups" is not a role source; use realm_access, resource_access:<client>, roles, scope, permissions or claim:<name>/,
    );
    expect(() => parseRoleSources(" , ")).toThrow(/names no role source/);
  });

  it("keeps a grant of any role somebody declares, and no other: no list in this package limits which roles exist", () => {
    const claims = { sub: "sa-2", azp: "kyc-pipeline", realm_access: { roles: ["kyc:review", "proofs:read", "offline_access", "admin"] } };
    const servedBy = (roles: string[]) => identityFromClaims(claims, keycloakRoleSources([]), (role) => roles.includes(role)).roles;
    expect(servedBy(["kyc:review", "proofs:read"])).toEqual(["kyc:review", "proofs:read"]);
    // The same token after the KYC domain is removed from the supergraph: its role is ignored again.
    expect(servedBy(["proofs:read"])).toEqual(["proofs:read"]);
  });

  it("lists the roles a schema declares, each once", () => {
    expect(RequiredRoles.fromDocument(parse(sdl)).declaredRoles()).toEqual(["proofs:export", "proofs:read", "travel-rule:read"]);
    expect(RequiredRoles.fromSchema(buildSchema(sdl)).declaredRoles()).toEqual(["proofs:export", "proofs:read", "travel-rule:read"]);
  });

  it("reads bearer tokens only from well-formed Bearer headers", () => {
    expect(bearerTokenFrom({ authorization: "Bearer abc.def.ghi" })).toBe("abc.def.ghi");
    expect(bearerTokenFrom({ authorization: "bearer abc" })).toBe("abc");
    expect(bearerTokenFrom({ authorization: "Basic abc" })).toBeUndefined();
    expect(bearerTokenFrom({ authorization: "Bearer a b" })).toBeUndefined();
    expect(bearerTokenFrom({})).toBeUndefined();
  });

  it("finds the first role an operation needs and the caller lacks", () => {
    const schema = buildSchema(sdl);
    const required = RequiredRoles.fromDocument(parse(sdl));
    const check = (query: string, roles: string[]) => {
      const document = parse(query);
      const operation = document.definitions[0];
      if (operation?.kind !== "OperationDefinition") throw new Error("no operation");
      return findMissingRole(schema, document, operation, required, roles);
    };
    expect(check("{ open }", [])).toBeUndefined();
    expect(check("{ area { items { id } } }", [])).toEqual({ role: "proofs:read", coordinate: "Area.items" });
    expect(check("{ area { export } }", ["proofs:read"])).toEqual({ role: "proofs:export", coordinate: "Area.export" });
    // A field selected on an interface needs what any implementation declares.
    expect(check("{ area { items { id } } }", ["proofs:read"])).toEqual({ role: "travel-rule:read", coordinate: "Secret.id" });
    expect(check("{ area { items { __typename } } }", ["proofs:read"])).toBeUndefined();
  });

  it("is enforced by the subgraph's resolvers too", async () => {
    const schema = enforceRequiredRoles(buildSchema(sdl));
    const rootValue = { area: { items: [{ __typename: "Plain", id: "1" }], export: "x" }, open: "yes" };
    const run = (source: string, roles: string[]) => graphql({ schema, source, rootValue, contextValue: { identity: { roles } } });
    expect((await run("{ open }", [])).errors).toBeUndefined();
    const refused = await run("{ area { export } }", ["proofs:read"]);
    expect(refused.errors?.[0]?.message).toBe('Area.export requires the role "proofs:export".');
    expect((await run("{ area { export } }", ["proofs:read", "proofs:export"])).errors).toBeUndefined();
  });
});

describe("ExpiringCache", () => {
  it("forgets entries at their expiry and the oldest beyond its bound", () => {
    let now = 1_000;
    const cache = new ExpiringCache<string>(2, () => now);
    cache.set("a", "A", 2_000);
    cache.set("b", "B", 5_000);
    cache.set("c", "C", 5_000);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.size).toBe(2);
    now = 5_000;
    expect(cache.get("b")).toBeUndefined();
  });
});
