// esbuild `inject` for the CLI bundle: what the bundled code reads as the globals `Headers` and
// `FormData`. Node defines both as getters that load all of undici (~50 ms, ~10 MiB), and the
// SDK touches them on every request (`new Headers()`, `body instanceof FormData`) though its
// requests go over node:http (runtime/model/http-fetch.ts).
export { FetchHeaders as Headers } from '../dist/runtime/model/fetch-headers.js'

/** Node's FormData, loaded only when one is made; `instanceof` answers from the object's tag without loading it. */
export class FormData {
  static [Symbol.hasInstance](value) {
    return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object FormData]'
  }

  constructor(...args) {
    return new globalThis.FormData(...args)
  }
}

/**
 * What the bundle reads as `globalThis.ReadableStream` (scripts/bundle.mjs defines it so). Node's
 * global is a getter that loads its web streams (~5 ms of a cold run), and the SDK tests every
 * request body with `instanceof globalThis.ReadableStream`, though its bodies are strings. The
 * test answers no for whatever has no `getReader` without loading them; `new` makes a real one.
 */
const realReadableStream = () => Reflect.get(globalThis, 'ReadableStream')
export class __lazyReadableStream {
  static [Symbol.hasInstance](value) {
    return typeof value?.getReader === 'function' && value instanceof realReadableStream()
  }

  constructor(...args) {
    return new (realReadableStream())(...args)
  }
}
