// The search's one source of choices: a seeded generator (mulberry32), so the same module, seed and
// budget give the same sequences, in the same order, on every run.
export interface Rng {
  /** in [0, 1) */
  next(): number;
  int(n: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  /** an index drawn in proportion to the weights (all zero: the first) */
  weighted(weights: readonly number[]): number;
}

export function hashSeed(seed: number, text: string): number {
  let h = seed >>> 0 || 1;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick: (list) => list[int(list.length)],
    chance: (p) => next() < p,
    weighted(weights) {
      const total = weights.reduce((s, w) => s + Math.max(0, w), 0);
      if (total <= 0) return 0;
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= Math.max(0, weights[i]);
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
  };
}
