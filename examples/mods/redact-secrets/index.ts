import { defineMod } from 'modloop'
import { z } from 'zod'

/** Shapes of credentials that often show up in files and command output. */
const SECRETS: RegExp[] = [
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key id
  /\bsk-ant-[A-Za-z0-9_-]{10,}/g, // Anthropic API key
  /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, // GitHub token
  /\bxox[baprs]-[A-Za-z0-9-]{10,}/g, // Slack token
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\b((?:password|passwd|secret|api[_-]?key|token)\s*[=:]\s*)["']?[^\s"']{6,}/gi,
]

const options = z.object({ mask: z.string().default('[REDACTED]') })

/**
 * Redacts secrets from every tool result before the model reads it: a post-processing tool.call
 * handler, so it sees what the tool (and every mod beneath) produced, whichever tool it was.
 */
export default defineMod({
  name: 'redact-secrets',
  description: 'Masks API keys, tokens and private keys in tool results',
  options,
  register(on, opts) {
    const redact = (text: string) =>
      SECRETS.reduce((t, re) => t.replace(re, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${opts.mask}` : opts.mask)), text)
    const scrub = (value: unknown): unknown => {
      if (typeof value === 'string') return redact(value)
      if (Array.isArray(value)) return value.map(scrub)
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]))
      return value
    }

    on('tool.call', async (_$, e, next) => {
      const r = await next(e)
      if ('deny' in r) return r
      return { ...r, result: scrub(r.result), ...(r.text !== undefined ? { text: redact(r.text) } : {}) }
    })
  },
})
