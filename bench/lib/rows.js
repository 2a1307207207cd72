// The issue-26 figures as rows beside their targets. A script prints each row as one `bench-row`
// JSON line; bench/run.js gathers them into the table at the end of `npm run bench`.
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** Prints a row: `value` against `target` (`max` is the bound), `detail` says how it was measured. */
export function row(name, value, { max, unit, detail = '', digits = 1 }) {
  const pass = Number.isFinite(value) ? value <= max : undefined
  console.log(`bench-row ${JSON.stringify({ name, value, max, unit, detail, digits, pass })}`)
}
