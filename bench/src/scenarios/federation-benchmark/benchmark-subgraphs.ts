import { readFileSync } from "node:fs";
import { buildSubgraphSchema } from "@apollo/subgraph";
import { defaultFieldResolver, GraphQLError, isObjectType, parse, type GraphQLSchema } from "graphql";
import type { BenchmarkData, BenchmarkReview } from "./benchmark-data.js";

export const benchmarkSubgraphNames = ["accounts", "inventory", "products", "reviews"] as const;
export type BenchmarkSubgraphName = (typeof benchmarkSubgraphNames)[number];

/** The SDL of one subgraph, read from its `.graphql` file beside this one (the contract). */
export function benchmarkSubgraphSdl(name: BenchmarkSubgraphName): string {
  return readFileSync(new URL(`./${name}.graphql`, import.meta.url), "utf8");
}

/**
 * What a field does instead of resolving, for tests that need subgraphs failing in places:
 * `"null"` answers null, `"error"` throws (a GraphQL error with the field's path in the answer).
 */
export type FieldFault = (coordinate: { subgraph: BenchmarkSubgraphName; type: string; field: string; parent: unknown }) => "null" | "error" | undefined;

// Each resolver names its own parent and argument types; buildSubgraphSchema checks them against the SDL.
type Resolvers = Record<string, Record<string, (...args: never[]) => unknown>>;

/**
 * The four subgraphs of the public benchmark's workload, behaving as its own subgraphs do: the
 * reviews subgraph gives every user the first two reviews and every review the first user as its
 * author (with the username it provides), and the inventory's records hold no price or weight, so
 * its shipping estimate is null whatever the representation carries.
 */
export function benchmarkSubgraphSchemas(data: BenchmarkData, fault?: FieldFault): Record<BenchmarkSubgraphName, GraphQLSchema> {
  const userById = new Map(data.users.map((user) => [user.id, user]));
  const productByUpc = new Map(data.products.map((product) => [product.upc, product]));
  const reviewById = new Map(data.reviews.map((review) => [review.id, review]));
  const reviewView = (review: BenchmarkReview) => ({ id: review.id, body: review.body, productUpc: review.productUpc });
  const firstUser = data.users[0]!;

  const resolvers: Record<BenchmarkSubgraphName, Resolvers> = {
    accounts: {
      Query: {
        me: () => firstUser,
        user: (_: unknown, { id }: { id: string }) => userById.get(id) ?? null,
        users: () => data.users,
      },
      User: { __resolveReference: ({ id }: { id: string }) => userById.get(id) ?? null },
    },
    inventory: {
      Product: {
        __resolveReference: ({ upc }: { upc: string }) => {
          const product = productByUpc.get(upc);
          return product ? { upc, inStock: product.inStock } : null;
        },
        shippingEstimate: (product: { price?: number; weight?: number }) => {
          if (product.price === undefined || product.weight === undefined) return null;
          return product.price > 1000 ? 0 : product.weight / 2;
        },
      },
    },
    products: {
      Query: { topProducts: (_: unknown, { first }: { first: number }) => data.products.slice(0, first) },
      Product: { __resolveReference: ({ upc }: { upc: string }) => productByUpc.get(upc) ?? null },
    },
    reviews: {
      Review: {
        __resolveReference: ({ id }: { id: string }) => {
          const review = reviewById.get(id);
          return review ? reviewView(review) : null;
        },
        product: (review: BenchmarkReview) => ({ upc: review.productUpc }),
        author: () => ({ id: firstUser.id, username: firstUser.username }),
      },
      User: {
        __resolveReference: ({ id }: { id: string }) => ({ id }),
        reviews: () => data.reviews.slice(0, 2).map(reviewView),
      },
      Product: {
        __resolveReference: ({ upc }: { upc: string }) => ({ upc }),
        reviews: (product: { upc: string }) => data.reviews.filter((review) => review.productUpc === product.upc).map(reviewView),
      },
    },
  };

  const schemas = {} as Record<BenchmarkSubgraphName, GraphQLSchema>;
  for (const name of benchmarkSubgraphNames) {
    const schema = buildSubgraphSchema({ typeDefs: parse(benchmarkSubgraphSdl(name)), resolvers: resolvers[name] as never });
    if (fault) injectFaults(schema, name, fault);
    schemas[name] = schema;
  }
  return schemas;
}

/** Wraps every field of the subgraph's own object types (not `_Service`, `_entities`) with `fault`. */
function injectFaults(schema: GraphQLSchema, subgraph: BenchmarkSubgraphName, fault: FieldFault): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("_")) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.name.startsWith("_")) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (parent, args, context, info) => {
        const planned = fault({ subgraph, type: type.name, field: field.name, parent });
        if (planned === "null") return null;
        if (planned === "error") throw new GraphQLError(`${subgraph} failed on ${type.name}.${field.name}`, { extensions: { code: "BENCH_FAULT" } });
        return resolve(parent, args, context, info);
      };
    }
  }
}
