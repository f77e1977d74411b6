/**
 * The data behind the federation benchmark's four subgraphs, generated from a fixed seed in the
 * shape and size of the public benchmark's (graphql-hive/graphql-gateways-benchmark): 6 users, 9
 * products, 11 reviews (four of the first product, four of the second, one of the third, two of the
 * fourth), every string of the same length as the benchmark's, so that the big query's answer has
 * the same size (about 87 KB). The words are our own: only the counts and lengths are the
 * benchmark's.
 */
export interface BenchmarkUser {
  id: string;
  name: string;
  username: string;
  birthday: number;
}

export interface BenchmarkProduct {
  upc: string;
  name: string;
  price: number;
  weight: number;
  inStock: boolean;
}

export interface BenchmarkReview {
  id: string;
  body: string;
  productUpc: string;
}

export interface BenchmarkData {
  users: BenchmarkUser[];
  products: BenchmarkProduct[];
  reviews: BenchmarkReview[];
}

/** Lengths of the benchmark's strings, in characters. */
const nameLengths = [14, 11, 13, 14, 11, 12];
const usernameLengths = [5, 10, 12, 7, 10, 6];
const productNameLengths = [5, 5, 5, 5, 2, 4, 5, 6, 4];
/** Price and weight of each product: the same magnitudes as the benchmark's (the first above 1000 get a free shipping estimate there). */
const productFigures = [
  [899, 100],
  [1299, 1000],
  [15, 20],
  [499, 100],
  [1299, 1000],
  [6999, 300],
  [3999, 2000],
  [100000, 6000],
  [9999, 800],
] as const;
const reviewBodyLengths = [445, 289, 275, 143, 445, 289, 275, 143, 143, 143, 844];
const reviewProducts = ["1", "1", "1", "1", "2", "2", "2", "2", "3", "4", "4"];

/** mulberry32: a small seeded generator, so every run (and every process) makes the same data. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const consonants = "bcdfghjklmnprstvz";
const vowels = "aeiou";

/** A pronounceable lower-case word of exactly `length` letters. */
function word(random: () => number, length: number): string {
  let text = "";
  for (let i = 0; i < length; i += 1) {
    const letters = i % 2 === 0 ? consonants : vowels;
    text += letters[Math.floor(random() * letters.length)];
  }
  return text;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Words of 2 to 9 letters separated by spaces, a sentence's capital and full stop, exactly `length` characters. */
function prose(random: () => number, length: number): string {
  let text = "";
  while (text.length < length) {
    const remaining = length - text.length - (text ? 1 : 0);
    if (remaining <= 0) break;
    const size = remaining <= 10 ? remaining : 2 + Math.floor(random() * 8);
    text += (text ? " " : "") + word(random, size);
  }
  text = capitalised(text.slice(0, length - 1)) + ".";
  return text.length === length ? text : text.padEnd(length, "a");
}

/** A first and last name of `length` characters in all. */
function fullName(random: () => number, length: number): string {
  const first = Math.floor((length - 1) / 2);
  return `${capitalised(word(random, first))} ${capitalised(word(random, length - 1 - first))}`;
}

export function generateBenchmarkData(seed = 36): BenchmarkData {
  const random = seededRandom(seed);
  const users = nameLengths.map((length, index) => ({
    id: String(index + 1),
    name: fullName(random, length),
    username: word(random, usernameLengths[index]!),
    birthday: 1_234_567_890,
  }));
  const products = productNameLengths.map((length, index) => ({
    upc: String(index + 1),
    name: capitalised(word(random, length)),
    price: productFigures[index]![0],
    weight: productFigures[index]![1],
    inStock: random() < 0.5,
  }));
  const reviews = reviewBodyLengths.map((length, index) => ({ id: String(index + 1), body: prose(random, length), productUpc: reviewProducts[index]! }));
  return { users, products, reviews };
}
