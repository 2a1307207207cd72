import { EventEmitter } from 'node:events'
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { setTimeout as delay } from 'node:timers/promises'
import { stripVTControlCharacters } from 'node:util'
import { describe, expect, it } from 'vitest'
import { main } from '../../cli/main.js'
import { runCli } from '../helpers/cli.js'
import { startFakeAnthropic } from '../helpers/fake-anthropic.js'

/** Writes session.start's surface fields to `out`, one JSON line per session start. */
const recorder = (out: string) => `import { appendFileSync } from 'node:fs'
export default {
  name: 'recorder',
  register(on) {
    on('session.start', async ($, e, next) => {
      appendFileSync(${JSON.stringify(out)}, JSON.stringify({ surface: e.surface, isInteractive: e.isInteractive, source: e.source }) + '\\n')
      return next(e)
    })
  },
}
`

/** A replacement interactive surface: it loads its session's distribution and says what it got. */
const OTHER_UI = `export default {
  name: 'other-ui',
  provides: ['surface.other-ui'],
  register(on, options, $) {
    $.capability.provide('surface.other-ui', {
      async run(ctx) {
        const dist = await ctx.load(() => {})
        const names = dist.host.list().map((m) => m.name)
        ctx.io.stdout.write('other-ui ran: prompt=' + ctx.prompt + ' cwd=' + ctx.options.cwd + ' mods=' + names.join(',') + '\\n')
        await dist.host.close()
        return 3
      },
    })
  },
}
`

interface FakeTerminal {
  io: Parameters<typeof main>[1] & object
  screen(): string
  type(text: string): void
  waitFor(text: string, timeoutMs?: number): Promise<void>
}

/** stdin and stdout that say they are a terminal, in-process: keys are written, output is kept. */
function fakeTerminal(cwd: string, env: Record<string, string>): FakeTerminal {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => stdin })
  let out = ''
  const stdout = Object.assign(new EventEmitter(), { isTTY: true, columns: 80, rows: 24, write: (t: string) => { out += t; return true } })
  let err = ''
  const io = { stdin: stdin as unknown as NodeJS.ReadStream, stdout, stderr: { write: (t: string) => (err += t) }, cwd, env }
  const screen = () => stripVTControlCharacters(out) + err
  return {
    io,
    screen,
    type: (text) => void stdin.write(text),
    async waitFor(text, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      while (!screen().includes(text)) {
        if (Date.now() > deadline) throw new Error(`never saw ${text}; saw:\n${screen()}`)
        await delay(20)
      }
    },
  }
}

async function dirs(): Promise<{ cwd: string; home: string; elsewhere: string }> {
  const base = await mkdtemp(join(tmpdir(), 'modloop-surface-'))
  const [cwd, home, elsewhere] = ['project', 'home', 'elsewhere'].map((d) => join(base, d)) as [string, string, string]
  await Promise.all([cwd, home, elsewhere].map((d) => mkdir(d, { recursive: true })))
  return { cwd, home, elsewhere }
}

describe('session.start under the interactive terminal', () => {
  it('carries surface "terminal" and isInteractive in the terminal, null and false under -p', async () => {
    const { cwd, home } = await dirs()
    const rec = join(home, 'rec.jsonl')
    await writeFile(join(cwd, 'recorder.mjs'), recorder(rec))
    const server = await startFakeAnthropic({ script: { steps: [{ reply: 'hello from the terminal' }] } })
    try {
      const t = fakeTerminal(cwd, { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', HOME: home, MODLOOP_HOME: home })
      const exit = main(['--mod', './recorder.mjs'], t.io)
      await t.waitFor('Ctrl+D exits')
      t.type('hi\r')
      await t.waitFor('hello from the terminal')
      t.type('/clear\r')
      await t.waitFor('› /clear')
      // The new session's start is recorded before the terminal is left (a busy machine may take a while).
      while ((await readFile(rec, 'utf8').catch(() => '')).trim().split('\n').length < 2) await delay(20)
      t.type('\u0004')
      expect(await exit).toBe(0)
    } finally {
      await server.close()
    }
    const headless = await runCli(['-p', 'hi', '--mod', './recorder.mjs'], { script: { steps: [{ reply: 'ok' }] }, cwd, env: { HOME: home, MODLOOP_HOME: home } })
    expect(headless.code).toBe(0)
    const lines = (await readFile(rec, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toEqual([
      { surface: 'terminal', isInteractive: true, source: 'startup' },
      { surface: 'terminal', isInteractive: true, source: 'clear' },
      { surface: null, isInteractive: false, source: 'startup' },
    ])
  })
})

/** Asks the person in prompt.submit, on a budget far shorter than a person takes; writes the answer to `out`. */
const asker = (out: string) => `import { appendFileSync } from 'node:fs'
export default {
  name: 'asker',
  register(on) {
    on('prompt.submit', async ($, e, next) => {
      appendFileSync(${JSON.stringify(out)}, JSON.stringify(await $.ui.ask('Send it?', ['send', 'hold'])) + '\\n')
      return next(e)
    }, { budgetMs: 50 })
  },
}
`

describe('$.ui.ask in the terminal', () => {
  it('shows the question as a chooser; the asking handler waits on the person past its budget and gets the pick', async () => {
    const { cwd, home } = await dirs()
    const out = join(home, 'answers.jsonl')
    await writeFile(join(cwd, 'asker.mjs'), asker(out))
    const server = await startFakeAnthropic({ script: { steps: [{ reply: 'held, as asked' }] } })
    try {
      const t = fakeTerminal(cwd, { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test', HOME: home, MODLOOP_HOME: home })
      const exit = main(['--mod', './asker.mjs'], t.io)
      await t.waitFor('Ctrl+D exits')
      t.type('hi\r')
      await t.waitFor('asker: Send it?')
      // A person reads the question for several times the handler's 50 ms budget.
      await delay(300)
      t.type('2')
      await t.waitFor('held, as asked')
      t.type('\u0004')
      expect(await exit).toBe(0)
      expect(t.screen()).toContain('Send it?')
      expect(t.screen()).not.toContain('timed out')
    } finally {
      await server.close()
    }
    expect(await readFile(out, 'utf8')).toBe('"hold"\n')
  })
})

describe('the interactive surface is a mod', () => {
  it('a config that disables terminal-ui and adds another UI mod runs that one', async () => {
    const { cwd, home, elsewhere } = await dirs()
    await writeFile(join(elsewhere, 'other-ui.mjs'), OTHER_UI)
    const config = join(elsewhere, 'modloop.config.json')
    await writeFile(config, JSON.stringify({ extends: 'modloop', mods: [{ name: 'terminal-ui', enabled: false }, './other-ui.mjs'] }))
    const t = fakeTerminal(cwd, { HOME: home, MODLOOP_HOME: home })
    expect(await main(['--config', config, 'do', 'it'], t.io)).toBe(3)
    const said = t.screen()
    expect(said).toContain(`other-ui ran: prompt=do it cwd=${cwd} mods=`)
    expect(said).toMatch(/mods=settings-env,read,.*,other-ui\n/)
    expect(said).not.toContain('terminal-ui')
    // The built-in terminal never drew: no banner.
    expect(said).not.toContain('Ctrl+D exits')
  })

  it('a UI mod added after the default one takes over without disabling it', async () => {
    const { cwd, home, elsewhere } = await dirs()
    await writeFile(join(elsewhere, 'other-ui.mjs'), OTHER_UI)
    const config = join(elsewhere, 'modloop.config.json')
    await writeFile(config, JSON.stringify({ extends: 'modloop', mods: ['./other-ui.mjs'] }))
    const t = fakeTerminal(cwd, { HOME: home, MODLOOP_HOME: home })
    expect(await main(['--config', config], t.io)).toBe(3)
    expect(t.screen()).toMatch(/other-ui ran: prompt=undefined .*terminal-ui,other-ui\n/)
  })

  it('with no mod providing it, a clear error names the config', async () => {
    const { cwd, home, elsewhere } = await dirs()
    const config = join(elsewhere, 'modloop.config.json')
    await writeFile(config, JSON.stringify({ extends: 'modloop', mods: [{ name: 'terminal-ui', enabled: false }] }))
    const t = fakeTerminal(cwd, { HOME: home, MODLOOP_HOME: home })
    expect(await main(['--config', config], t.io)).toBe(1)
    expect(t.screen()).toContain(`modloop: MODLOOP_ERR_CONFIG: no mod of ${config} provides the interactive surface`)
    expect(t.screen()).toContain('-p "<prompt>"')
  })
})
