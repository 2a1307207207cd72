import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-model-options-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const lines = [
  { type: 'control_request', request_id: 'init', request: { subtype: 'initialize' } },
  { type: 'user', session_id: '', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null },
]

/** The models an Agent SDK host is given at initialize (what its model picker lists), and the requests sent. */
async function models(args: string[], env: Record<string, string> = {}) {
  const r = await runCli(['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', ...args], {
    script: [{ reply: 'ok' }], cwd: dir, stdin: lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
    env: { HOME: dir, MODLOOP_HOME: join(dir, 'home'), ...env },
  })
  expect(r.code).toBe(0)
  const init = r.out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.type === 'control_response' && m.response.request_id === 'init')
  return { rows: init.response.response.models as { value: string; resolvedModel: string; displayName: string; description: string }[], requests: r.requests }
}

describe('the model list: ANTHROPIC_CUSTOM_MODEL_OPTION and the pinned aliases\' names', () => {
  it('unset, the default and the aliases, with their own names', async () => {
    const { rows } = await models([])
    expect(rows.map((m) => m.value)).toEqual(['default', 'opus', 'fable', 'sonnet', 'haiku'])
    expect(rows.find((m) => m.value === 'opus')).toMatchObject({ displayName: 'Opus', resolvedModel: 'claude-opus-5-5' })
  })

  it('a custom model from a settings env block is listed last, named by its id and "Custom model (<id>)", and can be switched to', async () => {
    const { rows, requests } = await models(['--settings', JSON.stringify({ env: { ANTHROPIC_CUSTOM_MODEL_OPTION: 'gateway-model-7' } }), '--model', 'gateway-model-7'])
    expect(rows.at(-1)).toMatchObject({ value: 'gateway-model-7', resolvedModel: 'gateway-model-7', displayName: 'gateway-model-7', description: 'Custom model (gateway-model-7)' })
    expect(requests[0]!.body.model).toBe('gateway-model-7')
  })

  it('its _NAME and _DESCRIPTION name and describe it; one that is an alias already is not listed twice', async () => {
    const { rows } = await models([], { ANTHROPIC_CUSTOM_MODEL_OPTION: 'gw-1', ANTHROPIC_CUSTOM_MODEL_OPTION_NAME: 'Gateway One', ANTHROPIC_CUSTOM_MODEL_OPTION_DESCRIPTION: 'The team gateway' })
    expect(rows.at(-1)).toMatchObject({ value: 'gw-1', displayName: 'Gateway One', description: 'The team gateway' })
    const alias = await models([], { ANTHROPIC_CUSTOM_MODEL_OPTION: 'opus' })
    expect(alias.rows.map((m) => m.value)).toEqual(['default', 'opus', 'fable', 'sonnet', 'haiku'])
  })

  it('an alias pinned by ANTHROPIC_DEFAULT_<ALIAS>_MODEL takes the name and description its _NAME and _DESCRIPTION give; unpinned, they are not used', async () => {
    const { rows } = await models(['--settings', JSON.stringify({ env: {
      ANTHROPIC_DEFAULT_OPUS_MODEL: 'corp-opus', ANTHROPIC_DEFAULT_OPUS_MODEL_NAME: 'Opus (corp)', ANTHROPIC_DEFAULT_OPUS_MODEL_DESCRIPTION: 'Our pinned Opus',
      ANTHROPIC_DEFAULT_HAIKU_MODEL_NAME: 'Not pinned',
    } })])
    expect(rows.find((m) => m.value === 'opus')).toMatchObject({ resolvedModel: 'corp-opus', displayName: 'Opus (corp)', description: 'Our pinned Opus' })
    expect(rows.find((m) => m.value === 'haiku')).toMatchObject({ displayName: 'Haiku' })
  })
})
