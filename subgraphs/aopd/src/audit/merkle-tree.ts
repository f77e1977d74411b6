import { createHash } from "node:crypto";

/**
 * The RFC 9162 Merkle tree (section 2.1) the audit log is: the hashes, which stored subtrees make
 * up a range of leaves, the ranges an inclusion or consistency proof consists of, and the
 * verification of both proofs. Pure: the store (audit-tree-store.ts) reads the subtrees' hashes.
 * Indexes are numbers: a tree of 2^53 entries is far beyond any audit trail.
 */

/** SHA-256(0x00 || leaf). */
export function leafHash(leaf: string | Uint8Array): Buffer {
  return createHash("sha256")
    .update(Buffer.from([0]))
    .update(typeof leaf === "string" ? Buffer.from(leaf, "utf8") : leaf)
    .digest();
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash("sha256")
    .update(Buffer.from([1]))
    .update(left)
    .update(right)
    .digest();
}

/** The root of the empty tree: SHA-256 of nothing. */
export const emptyTreeRoot = createHash("sha256").digest();

/** A complete subtree: the leaves `index * 2^level` to `(index + 1) * 2^level - 1`. */
export interface SubtreeKey {
  level: number;
  index: number;
}

export const subtreeId = (key: SubtreeKey) => `${key.level}/${key.index}`;

/**
 * The complete subtrees that make up leaves `start` to `end - 1`, left to right, each as large as
 * its place allows. For every range a proof or a root needs (RFC 9162 splits a range at the
 * largest power of two below its size, and `start` is a multiple of that), the range's hash is
 * these subtrees' hashes folded from the right (`rangeHash`).
 */
export function subtreesOf(start: number, end: number): SubtreeKey[] {
  const keys: SubtreeKey[] = [];
  while (start < end) {
    let size = 1;
    while (start % (size * 2) === 0 && start + size * 2 <= end) size *= 2;
    keys.push({ level: Math.log2(size), index: start / size });
    start += size;
  }
  return keys;
}

/** The hash of leaves `start` to `end - 1` from the stored subtrees' hashes. */
export function rangeHash(nodes: ReadonlyMap<string, Buffer>, start: number, end: number): Buffer {
  if (start === end) return emptyTreeRoot;
  const hashes = subtreesOf(start, end).map((key) => {
    const hash = nodes.get(subtreeId(key));
    if (!hash) throw new Error(`the audit tree lacks subtree ${subtreeId(key)}`);
    return hash;
  });
  return hashes.reduceRight((right, left) => nodeHash(left, right));
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** The ranges whose hashes are PATH(index, D[0:size]) (RFC 9162 2.1.3.1), in the proof's order. */
export function inclusionRanges(index: number, size: number): [number, number][] {
  const ranges: [number, number][] = [];
  const walk = (m: number, lo: number, hi: number): void => {
    if (hi - lo === 1) return;
    const k = largestPowerOfTwoBelow(hi - lo);
    if (m < lo + k) {
      walk(m, lo, lo + k);
      ranges.push([lo + k, hi]);
    } else {
      walk(m, lo + k, hi);
      ranges.push([lo, lo + k]);
    }
  };
  walk(index, 0, size);
  return ranges;
}

/** The ranges whose hashes are PROOF(first, D[0:second]) (RFC 9162 2.1.4.1), in the proof's order; none when `first` is 0 or `second`. */
export function consistencyRanges(first: number, second: number): [number, number][] {
  const ranges: [number, number][] = [];
  if (first === 0 || first === second) return ranges;
  const subproof = (m: number, lo: number, hi: number, whole: boolean): void => {
    if (m === hi - lo) {
      if (!whole) ranges.push([lo, hi]);
      return;
    }
    const k = largestPowerOfTwoBelow(hi - lo);
    if (m <= k) {
      subproof(m, lo, lo + k, whole);
      ranges.push([lo + k, hi]);
    } else {
      subproof(m - k, lo + k, hi, false);
      ranges.push([lo, lo + k]);
    }
  };
  subproof(first, 0, second, true);
  return ranges;
}

const lsb = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/** RFC 9162 2.1.3.2: whether `path` proves the leaf hash at `index` in the tree of `size` with `root`. */
export function verifyInclusion(leaf: Uint8Array, index: number, size: number, path: readonly Uint8Array[], root: Uint8Array): boolean {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r: Buffer = Buffer.from(leaf);
  for (const p of path) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 && r.equals(root);
}

/** RFC 9162 2.1.4.2: whether `proof` shows the tree of `second` with `secondRoot` extends the tree of `first` with `firstRoot`. */
export function verifyConsistency(first: number, second: number, proof: readonly Uint8Array[], firstRoot: Uint8Array, secondRoot: Uint8Array): boolean {
  if (first > second) return false;
  if (first === second) return proof.length === 0 && Buffer.from(firstRoot).equals(secondRoot);
  if (first === 0) return proof.length === 0;
  // When the first tree is a complete subtree of the second, its root is the proof's implied first hash.
  const path = Number.isInteger(Math.log2(first)) ? [firstRoot, ...proof] : [...proof];
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return fr.equals(firstRoot) && sr.equals(secondRoot) && sn === 0;
}

/**
 * The root of a tree computed from its leaves one by one, in memory of one hash per level: the
 * stack holds the complete subtrees so far, left to right (what `subtreesOf(0, size)` names).
 * What `npm run verify-audit --checkpoint` recomputes from the entries themselves.
 */
export class MerkleRootBuilder {
  readonly #stack: { level: number; hash: Buffer }[] = [];
  size = 0;

  add(leaf: Buffer): void {
    let node = { level: 0, hash: leaf };
    while (this.#stack.length > 0 && this.#stack[this.#stack.length - 1]!.level === node.level) {
      const left = this.#stack.pop()!;
      node = { level: node.level + 1, hash: nodeHash(left.hash, node.hash) };
    }
    this.#stack.push(node);
    this.size += 1;
  }

  root(): Buffer {
    if (this.#stack.length === 0) return emptyTreeRoot;
    return this.#stack.map((node) => node.hash).reduceRight((right, left) => nodeHash(left, right));
  }
}
