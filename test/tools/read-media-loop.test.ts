import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import read from '../../mods/read/index.js'
import { compactionWith } from '../compaction/helpers.js'
import { runScript } from '../loop/helpers.js'
import { toolResults } from '../mcp/helpers.js'
import { noise, pdf, png } from './media-files.js'
import { tempDir } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
beforeAll(async () => {
  tmp = await tempDir()
  // ~3 MB of incompressible pixels: still over 1 MB as the JPEG Read sends.
  await writeFile(join(tmp.dir, 'shot.png'), png(1000, 1000, noise()))
  await writeFile(join(tmp.dir, 'doc.pdf'), pdf(2))
})
afterAll(() => tmp.remove())

const readCall = (input: Record<string, unknown>) => ({ tool_use: { name: 'Read', input } })

describe('images and PDFs that Read sends, in a conversation', () => {
  it('reach the API as image and document blocks, and count as the API counts them: a screenshot does not set off compaction', async () => {
    const run = await runScript([
      { reply: [readCall({ file_path: join(tmp.dir, 'shot.png') }), readCall({ file_path: join(tmp.dir, 'doc.pdf') })] },
      { reply: 'seen' },
      { reply: 'spare' },
    ], 'look', { cwd: tmp.dir, mods: [read, compactionWith({ thresholdTokens: 100_000 })] })
    expect(run.result.subtype).toBe('success')
    // No summary request came between the two: the image's ~1.4 MB of base64 is not ~350,000 tokens.
    expect(run.requests).toHaveLength(2)
    const [image, doc] = toolResults(run.requests, 1)
    expect(image!.content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: expect.any(String) } }])
    expect(image!.content[0].source.data.length).toBeGreaterThan(1_000_000)
    expect(doc!.content[1]).toEqual({ type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: pdf(2).toString('base64') } })
    // The fake server counts them as the API would, roughly: a few thousand tokens, not the base64's length.
    expect(run.result.usage.input_tokens + run.result.usage.cache_read_input_tokens + run.result.usage.cache_creation_input_tokens).toBeLessThan(60_000)
  })
})
