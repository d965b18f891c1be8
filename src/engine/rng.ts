/**
 * The session's seeded random generator: sfc32, whose four 32-bit words live in
 * the session state (like boardgame.io's `prngstate` and ink's story seed), so
 * a restored session draws exactly the numbers the original would have.
 */

/** The generator state for a seed (a 32-bit integer; other numbers are folded into one). */
export function seedRng(seed: number): number[] {
  let s = foldSeed(seed);
  // splitmix32 spreads a small seed over all four words.
  const next = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  const state = [next(), next(), next(), next()];
  // Discard the first outputs: sfc32 mixes poorly right after seeding.
  for (let i = 0; i < 12; i++) nextUint32(state);
  return state;
}

/** Advances the state in place and returns a uint32. */
export function nextUint32(state: number[]): number {
  let a = state[0]! >>> 0;
  let b = state[1]! >>> 0;
  let c = state[2]! >>> 0;
  let d = state[3]! >>> 0;
  const t = (((a + b) | 0) + d) | 0;
  d = (d + 1) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) | 0;
  state[0] = a >>> 0;
  state[1] = b >>> 0;
  state[2] = c >>> 0;
  state[3] = d >>> 0;
  return t >>> 0;
}

/** A uniform integer in [0, n). */
export function nextInt(state: number[], n: number): number {
  if (n <= 1) return 0;
  return Math.floor((nextUint32(state) / 4294967296) * n);
}

/** One element of a non-empty list, or undefined for an empty one (no draw is made then). */
export function pick<T>(state: number[], list: readonly T[]): T | undefined {
  if (list.length === 0) return undefined;
  if (list.length === 1) return list[0];
  return list[nextInt(state, list.length)];
}

export function foldSeed(seed: number): number {
  if (Number.isInteger(seed) && seed >= -0x80000000 && seed <= 0xffffffff) return seed >>> 0;
  // Non-integers and large numbers: hash their text so that every number gives a seed.
  let h = 0x811c9dc5;
  for (const ch of String(seed)) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  return h >>> 0;
}
