import { z } from 'zod'
import { defineMod } from '../../core/mod/define.js'
import { failure, registerTool } from '../_shared/register-tool.js'
import { fetchPage, type Page } from './fetch-page.js'
import { describeError } from '../../core/errors.js'
import { extensionOf, toolResultFile, toolResultsDirOf } from '../_shared/session-dir.js'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { builtinInput } from '../_shared/builtin-input.js'
import { envTrue } from '../../core/env.js'
import { builtinOptions } from '../_shared/builtin-options.js'

const input = builtinInput('WebFetch', () => z.object({
  url: z.string().url().describe('The URL to fetch'),
  prompt: z.string().describe('What to find out from the page'),
  offset: z.number().int().min(0).optional().describe('A character offset into the page text: to go on with a page that did not fit in one call, pass the offset the last result gave'),
}))

const options = builtinOptions('web-fetch', () => z.object({
  timeoutMs: z.number().int().positive().default(30_000),
  maxBytes: z.number().int().positive().default(10 * 1024 * 1024),
  /** How much of the page the small model reads. */
  maxContentChars: z.number().int().positive().default(100_000),
  cacheTtlMs: z.number().int().nonnegative().default(15 * 60_000),
  /** The model that answers the prompt over the page; default: the small fast model. */
  model: z.string().optional(),
}))

const DESCRIPTION = 'Fetch a URL and answer a prompt about its content. HTML is converted to markdown and read by a small, fast model; the answer comes back. http is upgraded to https; a redirect to another host is reported rather than followed. A long page comes in parts: the result names the offset to read on from.'

/** WebFetch: fetch, HTML to markdown, then a small model call answers the prompt over the page. */
export default defineMod({
  name: 'web-fetch',
  description: 'The WebFetch tool',
  uses: { transcriptFile: 'optional' },
  options,
  register(on, opts) {
    const cache = new Map<string, { at: number; page: Page }>()
    on('session.start', async ($, e, next) => {
      // CLAUDE_CODE_DISABLE_WEB_FETCH: no WebFetch tool, as in Claude Code.
      if (envTrue($.env.get('CLAUDE_CODE_DISABLE_WEB_FETCH'))) return next(e)
      await registerTool($, {
        name: 'WebFetch', description: DESCRIPTION, input, isReadOnly: true,
        call: async (i, ctx) => {
          const started = performance.now()
          let page: Page
          try {
            const hit = cache.get(i.url)
            page = hit && Date.now() - hit.at < opts.cacheTtlMs ? hit.page : await fetchPage(i.url, { timeoutMs: opts.timeoutMs, maxBytes: opts.maxBytes, signal: ctx.signal, env: $.env.all() })
            cache.set(i.url, { at: Date.now(), page })
          } catch (err) {
            return failure(`WebFetch could not fetch ${i.url}: ${describeError(err)}`)
          }
          if (page.redirect) {
            const text = `${i.url} redirects to another host: ${page.redirect}\nTo read it, call WebFetch again with that URL.`
            return { result: { ...summary(page, started), result: text }, text }
          }
          if (page.code >= 400) return failure(`WebFetch got HTTP ${page.code} ${page.codeText} from ${page.url}`)
          // Decoded as text, an image or a PDF is noise to the model that reads the page; saved as a
          // file, Read can open it.
          if (page.binary) {
            const path = join(toolResultsDirOf($), toolResultFile(ctx.toolUseId, extensionOf(page.contentType)))
            await mkdir(dirname(path), { recursive: true })
            await writeFile(path, page.data ?? new Uint8Array(0))
            const text = `${page.url} is not a text page (${page.contentType || 'no Content-Type'}, ${page.bytes.toLocaleString('en-US')} bytes${page.truncated ? ', cut at the size limit' : ''}). It was saved to ${path}: Read can open it if it is a PDF or an image.`
            return { result: { ...summary(page, started), result: text }, text }
          }
          const total = page.content.length
          const start = i.offset ?? 0
          if (start > 0 && start >= total) {
            const text = `There is nothing to read at offset ${start}: the page's text is ${total} characters long.`
            return { result: { ...summary(page, started), result: text }, text }
          }
          const end = Math.min(total, start + opts.maxContentChars)
          const part = start > 0 || end < total ? `This is characters ${start} to ${end} of the page's ${total}.\n\n` : ''
          const answer = await $.model.complete({
            model: opts.model, maxTokens: 2048,
            system: 'You answer a question about a web page using only its content. Be concise and quote exactly where it matters.',
            prompt: `${part}Web page content (${page.url}):\n---\n${page.content.slice(start, end)}\n---\n\n${i.prompt}`,
          }, { signal: ctx.signal })
          if (!answer.isAnswered) return failure(`WebFetch fetched ${page.url} but the model call failed (${answer.reason}${answer.error ? `: ${answer.error}` : ''})`)
          // Without this the model takes an answer over part of a long page for one over all of it.
          const text = end < total ? `${answer.text}\n\n[This answer read characters ${start} to ${end} of the page's ${total}; ${total - end} were not read. To read on, call WebFetch again with the same url and offset ${end}.]` : answer.text
          return { result: { ...summary(page, started), result: text }, text }
        },
      })
      return next(e)
    })
  },
})

function summary(page: Page, started: number) {
  return { bytes: page.bytes, code: page.code, codeText: page.codeText, durationMs: Math.round(performance.now() - started), url: page.url, ...(page.truncated ? { truncated: true } : {}) }
}

