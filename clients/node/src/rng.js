// A small seeded generator, so the same seed gives the same choices on every platform.

/** Mixes any integer-like seed (number, bigint or decimal string) into 32 bits. */
function seedBits(seed) {
  let value = BigInt.asUintN(64, BigInt(seed));
  let h = 0x9e3779b9;
  for (let i = 0; i < 4; i += 1) {
    h = Math.imul(h ^ Number(value & 0xffffn), 0x85ebca6b);
    h ^= h >>> 13;
    value >>= 16n;
  }
  return h >>> 0;
}

/** mulberry32 seeded from `seed`; `int(n)` returns an integer in [0, n). */
export function createRng(seed = 0) {
  let state = seedBits(seed);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int(n) {
      if (!Number.isInteger(n) || n <= 0) throw new RangeError(`int(n) needs a positive integer, got ${n}`);
      return Math.floor(next() * n);
    },
  };
}
