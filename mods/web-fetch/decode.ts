/**
 * A page's bytes as text, in the charset it declares: the Content-Type header's `charset`, else
 * (for HTML) a `<meta charset>` or `http-equiv` tag near the top, else a byte order mark, else
 * UTF-8. Reading a Latin-1 or Shift_JIS page as UTF-8 would hand the model replacement characters.
 */
export function decodeBody(bytes: Uint8Array, contentType: string): string {
  const label = bom(bytes) ?? charsetOf(contentType) ?? (/html/i.test(contentType) || contentType === '' ? metaCharset(bytes) : undefined)
  return decoderFor(label).decode(bytes)
}

/**
 * Whether a response is not text at all (an image, an archive, a PDF): it is described to the
 * model, not decoded into noise. Without a Content-Type, a NUL byte early on gives it away.
 */
export function isBinary(bytes: Uint8Array, contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase()
  if (type === '') return bom(bytes) === undefined && bytes.subarray(0, 1024).includes(0)
  if (type.startsWith('text/') || /[+/](json|xml|javascript|ecmascript|x-www-form-urlencoded)$/.test(type)) return false
  return !/^application\/(json|xml|javascript|x-javascript|ecmascript|x-sh|x-httpd-php|yaml|x-yaml|toml|sql|graphql|ld\+json|xhtml\+xml|rss\+xml|atom\+xml)$/.test(type)
}

function charsetOf(contentType: string): string | undefined {
  return /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1]
}

/** HTML's own declaration, looked for in the first 1024 bytes as the HTML standard's prescan does. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024))
  return /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.-]+)/i.exec(head)?.[1]
}

function bom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8'
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le'
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be'
  return undefined
}

/** A decoder for the label; an unknown label falls back to UTF-8 rather than failing the fetch. */
function decoderFor(label: string | undefined): { decode(bytes: Uint8Array): string } {
  let decoder: InstanceType<typeof TextDecoder>
  try {
    decoder = new TextDecoder(label ?? 'utf-8')
  } catch {
    return new TextDecoder('utf-8')
  }
  return decoder.encoding === 'windows-1252' ? { decode: (bytes) => fixC1(decoder.decode(bytes)) } : decoder
}

// windows-1252 (which the web means by latin1 and iso-8859-1 too) puts curly quotes, dashes and
// the euro sign at 0x80-0x9F; Node 20's decoder leaves them as C1 control characters.
const CP1252_C1 = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178'
const fixC1 = (text: string): string => text.replace(/[\u0080-\u009f]/g, (c) => CP1252_C1[c.charCodeAt(0) - 0x80]!)
