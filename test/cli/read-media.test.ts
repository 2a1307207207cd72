import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { builtModloop } from '../helpers/built-cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'
import { toolResults } from '../mcp/helpers.js'
import { pdf, png } from '../tools/media-files.js'
import { tempDir } from '../tools/harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => {
  tmp = await tempDir()
  await writeFile(join(tmp.dir, 'wide.png'), png(2400, 10, (x) => [x % 256, 0, 0]))
  await writeFile(join(tmp.dir, 'long.pdf'), pdf(12))
  // A damaged object that pdf-lib reads past, saying so with console.warn.
  await writeFile(join(tmp.dir, 'damaged.pdf'), pdf(3).toString('latin1').replace('/BaseFont /Helvetica >>', '/BaseFont /Helvetica )) ]'))
})
afterAll(() => tmp.remove())

const readCall = (input: Record<string, unknown>) => ({ tool_use: { name: 'Read', input } })

// Read's image coders and PDF reader are files of their own in the build (scripts/bundle.mjs), loaded on first use.
describe('Read of an image and a PDF in the built CLI', () => {
  it('the built CLI loads its image coders and PDF reader when a read needs them, prints the results in stream-json, and keeps pdf-lib\'s parser warnings off stderr', async () => {
    const server = await startFakeAnthropic({ script: [
      { reply: [readCall({ file_path: join(tmp.dir, 'wide.png') }), readCall({ file_path: join(tmp.dir, 'long.pdf'), pages: '2-3' }), readCall({ file_path: join(tmp.dir, 'damaged.pdf') })] },
      { reply: 'seen' },
    ] })
    try {
      const run = await builtModloop(['-p', 'look', '--output-format', 'stream-json', '--verbose'], {
        cwd: tmp.dir, env: { ...process.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', MODLOOP_HOME: join(tmp.dir, '.home'), HOME: tmp.dir },
      })
      expect(run.code, run.err).toBe(0)
      const results = run.out.trim().split('\n').map((l) => JSON.parse(l)).filter((m) => m.type === 'user' && m.tool_use_result)
      expect(results.map((m) => m.tool_use_result.type)).toEqual(['image', 'pdf', 'pdf'])
      // The parser's complaints about the damaged one stay off the screen.
      expect(run.err).not.toContain('Trying to parse invalid object')
      expect(results[0].tool_use_result.file.dimensions).toEqual({ originalWidth: 2400, originalHeight: 10, displayWidth: 2000, displayHeight: 8 })
      expect(results[1].tool_use_result.file).toMatchObject({ totalPages: 12, firstPage: 2, lastPage: 3 })
      const [image, doc] = toolResults(server.requests, 1)
      expect(image!.content[0].source.media_type).toBe('image/png')
      expect(doc!.content[0].text).toContain('pages 2-3 of 12')
    } finally {
      await server.close()
    }
  })
})
