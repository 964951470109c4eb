// How many of a thing, in words, for every page: "1 move", "2 moves", "0 moves".
// `plural` for a noun that does not just take an "s" ("1 match", "2 matches").
export function count(n, singular, plural = `${singular}s`) {
  return `${n} ${n === 1 ? singular : plural}`;
}

// A place in a match's ranking: "1st", "2nd", "3rd", "4th" ... "11th", "21st".
export function ordinal(n) {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th"}`;
}

// "a", "a and b", "a, b and c" ("none" for nothing).
export function listed(words) {
  if (!words.length) return "none";
  return words.length < 2 ? words[0] : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
