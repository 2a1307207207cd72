import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCRUBBED_VARIABLES, subprocessEnv } from '../../hooks-runner/scrub-env.js'
import { runCli } from '../helpers/cli.js'
import { FIXTURE } from '../mcp/helpers.js'


let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'modloop-env-scrub-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const bash = (id: string, command: string) => ({ tool_use: { id, name: 'Bash', input: { command } } })
const whoami = { tool_use: { id: 'toolu_m', name: 'mcp__fx__whoami', input: {} } }
const resultOf = (body: any, n = 0): string => {
  const content = body.messages.at(-1).content.filter((b: any) => b.type === 'tool_result')[n].content
  return typeof content === 'string' ? content : content.map((c: any) => c.text).join('')
}

/** One run: a Bash command and an MCP call, a PreToolUse hook noting what it sees, the settings given. */
async function run(settings: Record<string, unknown>, env: Record<string, string> = {}) {
  const hookOut = join(dir, `hook-${Math.random().toString(36).slice(2)}.txt`)
  const hooks = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo "hook key=\${ANTHROPIC_API_KEY:-none}" > '${hookOut}'` }] }] }
  const mcpConfig = join(dir, 'mcp.json')
  await writeFile(mcpConfig, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_SHOW_API_KEY: '1' } } } }))
  const script = [
    { reply: [bash('toolu_b', 'echo "key=${ANTHROPIC_API_KEY:-none} aws=${AWS_SECRET_ACCESS_KEY:-none} gh=${GITHUB_TOKEN:-none} other=${PLAIN_VAR:-none}"'), whoami] },
    { reply: 'done' },
  ]
  const r = await runCli(['-p', 'go', '--settings', JSON.stringify({ ...settings, hooks }), '--mcp-config', mcpConfig, '--allowedTools', 'Bash', 'mcp__fx__whoami'], {
    script, cwd: dir,
    env: { HOME: dir, MODLOOP_HOME: join(dir, 'home'), AWS_SECRET_ACCESS_KEY: 'aws-secret', GITHUB_TOKEN: 'gh-token', PLAIN_VAR: 'plain', ...env },
  })
  expect(r.code).toBe(0)
  const body = r.requests[1]!.body
  return { r, bash: resultOf(body, 0), mcp: JSON.parse(resultOf(body, 1)) as { apiKey: string | null }, hook: (await readFile(hookOut, 'utf8')).trim() }
}

describe('CLAUDE_CODE_SUBPROCESS_ENV_SCRUB', () => {
  it('unset, Bash commands, hooks and stdio MCP servers inherit the credentials', async () => {
    const { bash, mcp, hook } = await run({})
    expect(bash).toContain('key=test aws=aws-secret gh=gh-token other=plain')
    expect(hook).toBe('hook key=test')
    expect(mcp.apiKey).toBe('test')
  })

  it('on in a settings env block, they get none of them while the model requests still carry the key; GITHUB_TOKEN and other variables stay', async () => {
    const { r, bash, mcp, hook } = await run({ env: { CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: '1' } })
    expect(bash).toContain('key=none aws=none gh=gh-token other=plain')
    expect(hook).toBe('hook key=none')
    expect(mcp.apiKey).toBeNull()
    expect(r.requests.map((q) => q.headers['x-api-key'])).toEqual(['test', 'test'])
  })

  it('on in the environment modloop starts in, the same', async () => {
    const { bash, hook } = await run({}, { CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: 'true' })
    expect(bash).toContain('key=none aws=none gh=gh-token')
    expect(hook).toBe('hook key=none')
  })
})

describe('subprocessEnv', () => {
  it('returns the environment itself unless the switch is on, else a copy without the credentials', () => {
    const env = { ANTHROPIC_API_KEY: 'k', PATH: '/bin', CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: '0' }
    expect(subprocessEnv(env)).toBe(env)
    const on = { ...env, CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: 'ON', ...Object.fromEntries(SCRUBBED_VARIABLES.map((n) => [n, 'x'])) }
    expect(subprocessEnv(on)).toEqual({ PATH: '/bin', CLAUDE_CODE_SUBPROCESS_ENV_SCRUB: 'ON' })
    expect(on.ANTHROPIC_API_KEY).toBe('x')
  })
})
