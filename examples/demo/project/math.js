// Small statistics helpers used by the demo's "fix the failing test" turn.
export function sum(xs) {
  let total = 0
  for (let i = 1; i < xs.length; i++) total += xs[i]
  return total
}

export function mean(xs) {
  return xs.length === 0 ? 0 : sum(xs) / xs.length
}
