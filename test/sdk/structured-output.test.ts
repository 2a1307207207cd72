import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import agentMod from '../../mods/agent/index.js'
import structuredOutput from '../../mods/structured-output/index.js'
import { runCli } from '../helpers/cli.js'
import { assertNoDanglingToolUse, runScript, toolsMod } from '../loop/helpers.js'

const schema = { type: 'object', properties: { answer: { type: 'number' }, unit: { type: 'string', format: 'not-a-known-format' } }, required: ['answer'], additionalProperties: false }
const outputFormat = { type: 'json_schema' as const, schema }
const so = (input: Record<string, unknown>) => ({ tool_use: { name: 'StructuredOutput', input } })
const opts = { outputFormat, mods: [toolsMod(), structuredOutput] }
const toolResults = (run: { requests: { body: any }[] }, i: number) => run.requests[i]!.body.messages.at(-1).content

describe('structured output', () => {
  it('offers the StructuredOutput tool with the schema as its input, and ends the turn on a valid call', async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Echo', input: { text: 'x' } } }] },
      { reply: [{ text: 'here it is' }, so({ answer: 42, unit: 'm' })] },
    ], 'go', opts)
    const tool = run.requests[0]!.body.tools.find((t: any) => t.name === 'StructuredOutput')
    expect(tool.input_schema).toEqual(schema)
    expect(run.requests).toHaveLength(2)
    expect(run.result).toMatchObject({ subtype: 'success', is_error: false, terminal_reason: 'completed', structured_output: { answer: 42, unit: 'm' } })
    // The result text is the answer as JSON, as Claude Code gives it (-p prints it), not the text beside the call.
    expect(run.result.result).toBe('{"answer":42,"unit":"m"}')
    expect(run.error).toBeUndefined()
  })

  it('subagents are not offered the StructuredOutput tool', async () => {
    const run = await runScript([
      { reply: [{ tool_use: { name: 'Agent', input: { description: 'look', prompt: 'look around' } } }] },
      { reply: 'looked' },
      { reply: [so({ answer: 1 })] },
    ], 'go', { ...opts, mods: [...opts.mods, agentMod] })
    const names = (i: number) => run.requests[i]!.body.tools.map((t: any) => t.name)
    expect(names(0)).toEqual(expect.arrayContaining(['StructuredOutput', 'Agent', 'Echo']))
    expect(names(1)).toEqual(expect.arrayContaining(['Agent', 'Echo']))
    expect(run.requests[1]!.body.messages[0].content[0].text).toBe('look around')
    expect(names(1)).not.toContain('StructuredOutput')
    expect(run.result).toMatchObject({ subtype: 'success', structured_output: { answer: 1 } })
  })

  it('refuses input that does not fit, telling the model why, and takes the corrected call', async () => {
    const run = await runScript([{ reply: [so({ answer: 'many' })] }, { reply: [so({ answer: 7 })] }], 'go', opts)
    const refused = toolResults(run, 1)[0]
    expect(refused).toMatchObject({ is_error: true })
    expect(refused.content).toContain('input/answer must be number')
    expect(run.result.structured_output).toEqual({ answer: 7 })
    assertNoDanglingToolUse(run.requests)
  })

  it('reads quoted numbers and booleans at the top level as their property asks, as Claude Code does; nothing else', async () => {
    const schema = {
      type: 'object', required: ['n', 'i', 'b', 'u', 's'],
      properties: { n: { type: 'number' }, i: { type: 'integer' }, b: { type: 'boolean' }, u: { anyOf: [{ type: 'number' }, { type: 'null' }] }, s: { type: 'string' } },
    }
    const run = await runScript([
      { reply: [so({ n: '-2.5', i: '1e3', b: 'True', u: '4', s: '7' })] },
      { reply: [so({ n: '-2.5', i: '3', b: 'false', u: '4', s: '7' })] },
    ], 'go', { ...opts, outputFormat: { type: 'json_schema', schema } })
    // "1e3" and "True" are not read; the others are, and a string property keeps its string.
    expect(toolResults(run, 1)[0].content).toBe('The input does not match the required schema:\ninput/i must be integer\ninput/b must be boolean\nCall StructuredOutput again with input that fits the schema.')
    expect(run.result).toMatchObject({ subtype: 'success', structured_output: { n: -2.5, i: 3, b: false, u: 4, s: '7' } })
  })

  it('nudges an answer without the call, and the nudge counts as a retry', async () => {
    const run = await runScript([{ reply: 'the answer is 3' }, { reply: [so({ answer: 3 })] }], 'go', opts)
    const nudge = run.requests[1]!.body.messages.at(-1)
    expect(JSON.stringify(nudge.content)).toContain('calling the StructuredOutput tool')
    expect(run.result).toMatchObject({ subtype: 'success', structured_output: { answer: 3 } })
  })

  it('a nudge is a request of the turn: it stays within maxTurns, as Claude Code counts it', async () => {
    const run = await runScript([{ reply: 'the answer is 3' }, { reply: [so({ answer: 3 })] }], 'go', { ...opts, maxTurns: 1 })
    expect(run.requests).toHaveLength(1)
    expect(run.result).toMatchObject({ subtype: 'error_max_turns', terminal_reason: 'max_turns', num_turns: 2, errors: ['Reached maximum number of turns (1)'] })
  })

  it('gives up after MAX_STRUCTURED_OUTPUT_RETRIES (5) retries', async () => {
    const bad = { reply: [so({ answer: 'no' })] }
    const run = await runScript([bad, { reply: 'plain text' }, bad, bad, bad, bad, { reply: 'never asked' }], 'go', opts)
    expect(run.requests).toHaveLength(6)
    expect(run.result).toMatchObject({ subtype: 'error_max_structured_output_retries', is_error: true, terminal_reason: 'structured_output_retry_exhausted' })
    expect(run.result.errors![0]).toContain('after 6 attempts')
    expect(run.result.structured_output).toBeUndefined()
    expect(String(run.error)).toContain('structured output')
    assertNoDanglingToolUse(run.requests)
  })

  it('takes one answer per turn: a second call in the same response is refused', async () => {
    const run = await runScript([{ reply: [so({ answer: 1 }), so({ answer: 2 })] }], 'go', opts)
    expect(run.result.structured_output).toEqual({ answer: 1 })
    const results = run.messages.filter((m) => m.type === 'user').map((m: any) => m.message.content[0])
    expect(results[1]).toMatchObject({ is_error: true, content: expect.stringContaining('already called successfully') })
  })

  it('a schema that is not an object fails the run by name, before any request', async () => {
    const run = await runScript([{ reply: 'ok' }], 'go', { ...opts, outputFormat: { type: 'json_schema', schema: { type: 'array' } }, log: () => undefined })
    expect(run.result).toMatchObject({ is_error: true, terminal_reason: 'turn_setup_failed' })
    expect(run.result.errors!.join()).toContain('outputFormat.schema.type')
    expect(run.requests).toHaveLength(0)
  })

  it('-p --json-schema <file> --output-format json prints structured_output', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'modloop-so-'))
    const file = join(cwd, 'schema.json')
    writeFileSync(file, JSON.stringify(schema))
    const run = await runCli(['-p', 'go', '--json-schema', file, '--output-format', 'json'], { script: [{ reply: [so({ answer: 5 })] }], cwd, env: { MODLOOP_HOME: join(cwd, '.home') } })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.out)).toMatchObject({ subtype: 'success', structured_output: { answer: 5 } })
    const inline = await runCli(['-p', 'go', '--json-schema', JSON.stringify(schema), '--output-format', 'json'], { script: [{ reply: [so({ answer: 6 })] }], cwd, env: { MODLOOP_HOME: join(cwd, '.home') } })
    expect(JSON.parse(inline.out).structured_output).toEqual({ answer: 6 })
    const bad = await runCli(['-p', 'go', '--json-schema', '{nope'], { script: [], cwd })
    expect(bad.code).toBe(1)
    expect(bad.err).toContain('--json-schema')
  })
})
