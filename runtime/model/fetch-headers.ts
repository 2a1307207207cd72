type HeaderPairs = Iterable<readonly [string, string]> | Record<string, string | readonly string[] | undefined>

/**
 * The fetch `Headers` interface as the Anthropic SDK uses it (get, set, append, delete, has,
 * iteration), without undici. Node defines the global `Headers` as a getter that loads undici,
 * all of it (~50 ms of CPU and ~10 MiB), and the SDK builds a `new Headers()` for every request:
 * the CLI bundle hands the SDK this class in its place (scripts/bundle.mjs, esbuild `inject`),
 * so a run that talks to the API over node:http (http-fetch.ts) never loads undici.
 * Names are kept lowercased and iterate sorted, as fetch's do; values are not validated here
 * (node:http refuses a bad one when the request is sent).
 */
export class FetchHeaders {
  private readonly map = new Map<string, string>()
  private readonly cookies: string[] = []

  constructor(init?: HeaderPairs | FetchHeaders | null) {
    if (init == null) return
    if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value)
      return
    }
    for (const [name, value] of Object.entries(init)) {
      if (value === undefined) continue
      for (const v of Array.isArray(value) ? value : [value]) this.append(name, String(v))
    }
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase()
    const v = normalize(value)
    if (key === 'set-cookie') this.cookies.push(v)
    const before = this.map.get(key)
    this.map.set(key, before === undefined ? v : `${before}, ${v}`)
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase()
    const v = normalize(value)
    if (key === 'set-cookie') this.cookies.splice(0, this.cookies.length, v)
    this.map.set(key, v)
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase())
  }

  delete(name: string): void {
    const key = name.toLowerCase()
    if (key === 'set-cookie') this.cookies.length = 0
    this.map.delete(key)
  }

  /** Name → value, names lowercased: node:http's header object, without the sorted iteration. */
  toRecord(): Record<string, string> {
    return Object.fromEntries(this.map)
  }

  getSetCookie(): string[] {
    return [...this.cookies]
  }

  forEach(fn: (value: string, name: string, headers: this) => void, thisArg?: unknown): void {
    for (const [name, value] of this) fn.call(thisArg, value, name, this)
  }

  // Arrays, not generators: the SDK walks a request's headers several times while merging them,
  // and a generator step costs several times an array's while the code is still cold.
  entries(): IterableIterator<[string, string]> {
    return this.sorted().map((name): [string, string] => [name, this.map.get(name)!])[Symbol.iterator]()
  }

  keys(): IterableIterator<string> {
    return this.sorted()[Symbol.iterator]()
  }

  values(): IterableIterator<string> {
    return this.sorted().map((name) => this.map.get(name)!)[Symbol.iterator]()
  }

  private sorted(): string[] {
    return [...this.map.keys()].sort()
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }

  get [Symbol.toStringTag](): string {
    return 'Headers'
  }
}

// fetch strips leading and trailing HTTP whitespace from a value (most have none: no regex for them).
function normalize(value: string): string {
  const v = String(value)
  return v === '' || (!isSpace(v.charCodeAt(0)) && !isSpace(v.charCodeAt(v.length - 1))) ? v : v.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13
