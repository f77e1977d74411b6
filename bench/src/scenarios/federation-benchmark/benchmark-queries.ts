import type { BenchmarkData, BenchmarkProduct, BenchmarkReview, BenchmarkUser } from "./benchmark-data.js";

/**
 * The public benchmark's one query (its k6 script's `TestQuery`): users, their reviews, each
 * review's product with that product's reviews and their authors' reviews, and the top products
 * likewise. Four subgraphs, about ten fetches, an answer of about 87 KB.
 */
export const bigQuery = `fragment User on User {
  id
  username
  name
}

fragment Review on Review {
  id
  body
}

fragment Product on Product {
  inStock
  name
  price
  shippingEstimate
  upc
  weight
}

query TestQuery {
  users {
    ...User
    reviews {
      ...Review
      product {
        ...Product
        reviews {
          ...Review
          author {
            ...User
            reviews {
              ...Review
              product {
                ...Product
              }
            }
          }
        }
      }
    }
  }
  topProducts {
    ...Product
    reviews {
      ...Review
      author {
        ...User
        reviews {
          ...Review
          product {
            ...Product
          }
        }
      }
    }
  }
}`;

/** A small query, one subgraph and one fetch: what a gateway costs when the answer is tiny. */
export const smallQuery = "{ users { id username } }";

/**
 * The answers computed from the data alone, without GraphQL or any gateway: what every gateway
 * must return, field order included (the order of the query's selections).
 */
export function referenceAnswers(data: BenchmarkData): { big: unknown; small: unknown } {
  const first = data.users[0]!;
  const productOf = (upc: string) => data.products.find((product) => product.upc === upc)!;
  const reviewsOf = (product: BenchmarkProduct) => data.reviews.filter((review) => review.productUpc === product.upc);
  // The reviews subgraph gives every user the first two reviews, and every review the first user as its author.
  const userReviews = data.reviews.slice(0, 2);
  const user = (person: BenchmarkUser) => ({ id: person.id, username: person.username, name: person.name });
  const review = (entry: BenchmarkReview) => ({ id: entry.id, body: entry.body });
  // The inventory subgraph's records have no price or weight: its estimate is null (as in the public benchmark).
  const product = (entry: BenchmarkProduct) => ({
    inStock: entry.inStock,
    name: entry.name,
    price: entry.price,
    shippingEstimate: null,
    upc: entry.upc,
    weight: entry.weight,
  });
  const author = () => ({ ...user(first), reviews: userReviews.map((entry) => ({ ...review(entry), product: product(productOf(entry.productUpc)) })) });
  const big = {
    users: data.users.map((person) => ({
      ...user(person),
      reviews: userReviews.map((entry) => {
        const reviewed = productOf(entry.productUpc);
        return { ...review(entry), product: { ...product(reviewed), reviews: reviewsOf(reviewed).map((other) => ({ ...review(other), author: author() })) } };
      }),
    })),
    topProducts: data.products
      .slice(0, 5)
      .map((entry) => ({ ...product(entry), reviews: reviewsOf(entry).map((other) => ({ ...review(other), author: author() })) })),
  };
  const small = { users: data.users.map((person) => ({ id: person.id, username: person.username })) };
  return { big, small };
}
