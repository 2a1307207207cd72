import { readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ModApi } from '../../core/mod/api.js'
import { defineMod } from '../../core/mod/define.js'
import commandsMod from '../../mods/commands/index.js'
import outputStylesMod from '../../mods/output-styles/index.js'
import { App } from '../../mods/terminal-ui/app.js'
import { painter } from '../../mods/terminal-ui/color.js'
import { openConfigPanel } from '../../mods/terminal-ui/config-panel.js'
import { MessageView } from '../../mods/terminal-ui/message-view.js'
import { Screen } from '../../mods/terminal-ui/screen.js'
import { tempDir, writeTree } from '../context/fixtures.js'
import { conversation, type Conversation } from '../sdk/conversation.js'

const plain = painter({ NO_COLOR: '1' })
/** Waits until what was drawn passes `check`: the panel reads the files before it draws. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5))
}
const drawn = () => new Promise((resolve) => setImmediate(resolve))

let root: string
let c: Conversation
let api: ModApi
beforeAll(async () => {
  root = await tempDir('config-panel')
  await writeTree(root, {
    'project/.claude/output-styles/terse.md': '---\nname: Terse\n---\nOne line only.\n',
    'claude/settings.json': '{"permissions": {"allow": ["Bash(ls:*)"]}}\n',
  })
  // A real session: the panel reads and writes through its `$` as the terminal's does.
  const probe = defineMod({ name: 'probe', uses: { outputStyleList: 'optional' }, register: (on) => on('session.start', ($, e, next) => { api = $; return next(e) }) })
  c = await conversation([], { cwd: join(root, 'project'), mods: [commandsMod, outputStylesMod, probe], env: { CLAUDE_CONFIG_DIR: join(root, 'claude') } })
  await c.say('/status')
})
afterAll(async () => {
  await c.end()
  await rm(root, { recursive: true, force: true })
})

const json = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>

// In-process: the App as the terminal draws it, without a tmux pane.
describe('the /config panel', () => {
  it('lists the settings with their values; Enter flips a true/false one, a list offers its values, Other takes typed text, Esc closes', async () => {
    let written = ''
    const screen = new Screen({ write: (t: string) => (written += t), columns: 140 })
    const app = new App(screen, plain, new MessageView(screen, plain, () => {}))
    const said: string[] = []
    const waiting: (() => void)[] = []
    const saidOnce = () => new Promise<void>((resolve) => waiting.push(resolve))
    const say = (text: string) => { said.push(text); waiting.shift()?.() }
    const key = (name: string, str?: string) => app.onKey(str, { name })

    let closed = false
    const panel = openConfigPanel(app, api, say).then(() => { closed = true })
    await until(() => written.includes('Output style'))
    expect(written).toContain('Settings')
    expect(written).toMatch(/❯ 1\. Auto-compact +true/)
    expect(written).toMatch(/4\. Output style +default/)

    // Enter on Auto-compact turns it off at once, and the list comes back on it.
    let mark = written.length
    let change = saidOnce()
    key('return')
    await change
    expect(said.at(-1)).toBe(`Set Auto-compact (autoCompactEnabled) to false in ${join(root, 'claude', '.claude.json')}; applies now.`)
    expect(await json(join(root, 'claude', '.claude.json'))).toEqual({ autoCompactEnabled: false })
    await until(() => /❯ 1\. Auto-compact +false/.test(written.slice(mark)))
    expect(written.slice(mark)).toMatch(/❯ 1\. Auto-compact +false/)

    // Default permission mode: its values, the one in force marked; 3 picks plan.
    key('down')
    key('down')
    key('return')
    await drawn()
    expect(written).toContain(`Kept in ${join(root, 'claude', 'settings.json')} (defaultMode); applies from the next session`)
    expect(written).toContain('1. default (current)')
    mark = written.length
    change = saidOnce()
    key('3', '3')
    await change
    expect(await json(join(root, 'claude', 'settings.json'))).toEqual({ permissions: { allow: ['Bash(ls:*)'], defaultMode: 'plan' } })

    // Output style: the session's styles; the pick goes to the project's local settings.
    await until(() => /❯ 3\. Default permission mode +plan/.test(written.slice(mark)))
    expect(written.slice(mark)).toMatch(/❯ 3\. Default permission mode +plan/)
    key('down')
    key('return')
    await drawn()
    expect(written).toContain('2. Terse')
    mark = written.length
    change = saidOnce()
    key('2', '2')
    await change
    expect(await json(join(root, 'project', '.claude', 'settings.local.json'))).toEqual({ outputStyle: 'Terse' })

    // Language: Other takes typed text.
    await until(() => /❯ 4\. Output style +Terse/.test(written.slice(mark)))
    key('down')
    key('return')
    await drawn()
    key('2', '2')
    for (const ch of 'Dutch') key(ch.toLowerCase(), ch)
    mark = written.length
    change = saidOnce()
    key('return')
    await change
    expect((await json(join(root, 'claude', 'settings.json'))).language).toBe('Dutch')

    // Esc on a setting's values goes back to the list; Esc on the list closes the panel.
    await until(() => /❯ 5\. Language +Dutch/.test(written.slice(mark)))
    key('return')
    await drawn()
    mark = written.length
    key('escape')
    await until(() => /❯ 5\. Language +Dutch/.test(written.slice(mark)))
    expect(closed).toBe(false)
    key('escape')
    await panel
    expect(closed).toBe(true)
    expect(said).toHaveLength(4)
  })
})
