import { decodeBody, isBinary } from './decode.js'
import { proxiedGet } from './proxied-get.js'

export interface Page {
  url: string
  code: number
  codeText: string
  bytes: number
  contentType: string
  /** The page as markdown (HTML) or text; or why it could not be read. */
  content: string
  /** Set when the page redirects to another host: the model decides whether to follow. */
  redirect?: string
  /** Not text (an image, a PDF, an archive): `content` is empty; the bytes read are in `data`, to be saved rather than read. */
  binary?: true
  data?: Uint8Array
  /** The page was longer than the size cap: only its first `bytes` were read. */
  truncated?: true
}

const LOCAL = new Set(['localhost', '127.0.0.1', '[::1]'])

/** http is upgraded to https, except for loopback hosts (local servers, tests). */
export function normaliseUrl(raw: string): URL {
  const url = new URL(raw)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`only http and https URLs can be fetched, not ${url.protocol}`)
  if (url.protocol === 'http:' && !LOCAL.has(url.hostname)) url.protocol = 'https:'
  return url
}

/**
 * Fetches a page with a timeout (for the whole exchange, body included) and a size cap: a page
 * past the cap is cut there, and says so. Same-host redirects are followed; a redirect to another
 * host is reported instead, so the model can decide. HTML becomes markdown; text is decoded in the charset the page declares.
 * `env` is the session's environment: its proxy variables and NO_PROXY apply to each hop, as they do to the model's requests.
 */
export async function fetchPage(raw: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal; env?: Record<string, string | undefined> }): Promise<Page> {
  const timeout = AbortSignal.timeout(opts.timeoutMs)
  try {
    return await fetchWithin(raw, opts, opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout)
  } catch (err) {
    if (timeout.aborted && !opts.signal?.aborted) throw new Error(`the page did not arrive within ${opts.timeoutMs} ms (the timeout)`, { cause: err })
    throw err
  }
}

async function fetchWithin(raw: string, opts: { maxBytes: number; env?: Record<string, string | undefined> }, signal: AbortSignal): Promise<Page> {
  let url = normaliseUrl(raw)
  for (let hops = 0; ; hops++) {
    const headers = { 'user-agent': 'modloop-webfetch', accept: 'text/html, text/markdown, text/plain, */*' }
    const res = (opts.env && await proxiedGet(url, headers, signal, opts.env)) ?? await fetch(url, { redirect: 'manual', signal, headers })
    const location = res.headers.get('location')
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url)
      await res.body?.cancel()
      if (next.host !== url.host) return { url: url.href, code: res.status, codeText: res.statusText, bytes: 0, contentType: '', content: '', redirect: next.href }
      if (hops >= 10) throw new Error('too many redirects')
      url = next
      continue
    }
    const { body: raw, bytes, truncated } = await readCapped(res, opts.maxBytes)
    const contentType = res.headers.get('content-type') ?? ''
    const page = { url: url.href, code: res.status, codeText: res.statusText, bytes, contentType }
    if (isBinary(raw, contentType)) return { ...page, content: '', binary: true, data: raw, ...(truncated ? { truncated } : {}) }
    const text = decodeBody(raw, contentType)
    const isHtml = /html/i.test(contentType) || (contentType === '' && /^\s*<(!doctype html|html)/i.test(text))
    const body = isHtml ? (await import('node-html-markdown')).NodeHtmlMarkdown.translate(text) : text
    const note = `\n\n[The page is longer than the ${opts.maxBytes.toLocaleString('en-US')}-byte limit: only its first ${bytes.toLocaleString('en-US')} bytes were read.]`
    return { ...page, content: truncated ? body + note : body, ...(truncated ? { truncated } : {}) }
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<{ body: Uint8Array; bytes: number; truncated: boolean }> {
  if (!res.body) return { body: new Uint8Array(0), bytes: 0, truncated: false }
  const chunks: Uint8Array[] = []
  let bytes = 0
  let truncated = false
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const room = maxBytes - bytes
    if (chunk.length > room) truncated = true
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
    bytes += Math.min(chunk.length, room)
    // Leaving the loop cancels the rest of the body.
    if (truncated) break
  }
  return { body: Buffer.concat(chunks), bytes, truncated }
}
