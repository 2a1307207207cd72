import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { boxPerTest, cmd, dump, dumped, lastUserTexts, writeSettings, type Box } from './helpers.js'

let box: Box
boxPerTest((b) => (box = b))

const cli = (args: string[], script: unknown) => runCli(args, { script, cwd: box.project, env: { HOME: box.home, MODLOOP_HOME: join(box.root, 'modloop-home') } })

describe('settings hooks in the default distribution', () => {
  it('UserPromptExpansion fires for a custom command, whose handler answers without calling next', async () => {
    await mkdir(join(box.project, '.claude', 'commands'), { recursive: true })
    await writeFile(join(box.project, '.claude', 'commands', 'review.md'), 'Review $ARGUMENTS carefully.\n')
    await writeSettings(box, { UserPromptExpansion: [{ matcher: 'review', hooks: [cmd(`${dump(box, 'UserPromptExpansion')}; echo 'the style guide is in STYLE.md'`)] }] })
    const r = await cli(['-p', '/review src/a.ts'], [{ reply: 'ok' }])
    expect(r.code, r.err).toBe(0)
    const [e] = await dumped(box, 'UserPromptExpansion')
    expect(e).toMatchObject({ expansion_type: 'slash_command', command_name: 'review', command_args: 'src/a.ts' })
    const sent = lastUserTexts(r.requests[0]!.body).join('\n')
    expect(sent).toContain('Review src/a.ts carefully.')
    expect(sent).toContain('the style guide is in STYLE.md')
  })
})
