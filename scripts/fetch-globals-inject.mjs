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
