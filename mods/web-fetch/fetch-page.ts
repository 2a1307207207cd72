
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
 * Fetches a page with a timeout and a size cap. Same-host redirects are followed; a redirect to
 * another host is reported instead, so the model can decide. HTML becomes markdown.
 */
export async function fetchPage(raw: string, opts: { timeoutMs: number; maxBytes: number; signal?: AbortSignal }): Promise<Page> {
  let url = normaliseUrl(raw)
  const signal = opts.signal ? AbortSignal.any([opts.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs)
  for (let hops = 0; ; hops++) {
    const res = await fetch(url, { redirect: 'manual', signal, headers: { 'user-agent': 'modloop-webfetch', accept: 'text/html, text/markdown, text/plain, */*' } })
    const location = res.headers.get('location')
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url)
      await res.body?.cancel()
      if (next.host !== url.host) return { url: url.href, code: res.status, codeText: res.statusText, bytes: 0, contentType: '', content: '', redirect: next.href }
      if (hops >= 10) throw new Error('too many redirects')
      url = next
      continue
    }
    const { text, bytes } = await readCapped(res, opts.maxBytes)
    const contentType = res.headers.get('content-type') ?? ''
    const content = /html/i.test(contentType) ? (await import('node-html-markdown')).NodeHtmlMarkdown.translate(text) : text
    return { url: url.href, code: res.status, codeText: res.statusText, bytes, contentType, content }
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<{ text: string; bytes: number }> {
  if (!res.body) return { text: '', bytes: 0 }
  const chunks: Uint8Array[] = []
  let bytes = 0
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const room = maxBytes - bytes
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
    bytes += Math.min(chunk.length, room)
    if (bytes >= maxBytes) break
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes }
}
