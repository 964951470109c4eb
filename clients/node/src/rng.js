// A small seeded generator, so the same seed gives the same choices on every platform.

/** The seeds a generator takes: a signed or unsigned 64-bit whole number. */
export const SEED_MIN = -(2n ** 63n);
export const SEED_MAX = 2n ** 64n - 1n;

/**
 * Mixes an integer-like seed (number, bigint or decimal string) into 32 bits. A seed is taken as
 * 64 bits, a negative one as its two's complement (-1 plays as 2**64 - 1); past 64 bits it would
 * fold onto another seed (2**64 onto 0), so it is refused.
 */
function seedBits(seed) {
  const whole = BigInt(seed);
  if (whole < SEED_MIN || whole > SEED_MAX) {
    throw new RangeError(`seed ${String(seed).slice(0, 40)} is out of range: ${SEED_MIN} to ${SEED_MAX}`);
  }
  let value = BigInt.asUintN(64, whole);
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
