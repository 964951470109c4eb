// How many of a thing, in words, for every page: "1 move", "2 moves", "0 moves".
// `plural` for a noun that does not just take an "s" ("1 match", "2 matches").
export function count(n, singular, plural = `${singular}s`) {
  return `${n} ${n === 1 ? singular : plural}`;
}
