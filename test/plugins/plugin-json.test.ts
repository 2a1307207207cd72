import { rm } from 'node:fs/promises'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { marketplaceDirs, plugin } from './marketplace-fixture.js'

let dir: string
let home: string
let project: string
let market: string
beforeEach(async () => {
  ;({ dir, home, project, market } = await marketplaceDirs('modloop-plugin-json-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const run = (...args: string[]) => plugin(args, project, home)
const line = (r: { out: string }) => JSON.parse(r.out) as Record<string, unknown>

describe('modloop plugin … --json', () => {
  it('prints one result line per command, a failure with its failureCode on stdout and its ✘ line on stderr', async () => {
    expect(line(await run('marketplace', 'add', market, '--json'))).toEqual({ command: 'marketplace-add', outcome: 'ok', marketplace: 'localmp', message: 'Successfully added marketplace: localmp (declared in user settings)' })
    expect(await run('marketplace', 'add', `${dir}/none`, '--json')).toEqual({
      code: 1, out: `${JSON.stringify({ command: 'marketplace-add', outcome: 'failed', message: `Path does not exist: ${dir}/none`, failureCode: 'invalid_source' })}\n`, err: `✘ Path does not exist: ${dir}/none\n`,
    })
    expect(line(await run('install', 'hello@localmp', '--json'))).toEqual({ command: 'install', outcome: 'ok', plugin: 'hello@localmp', pluginId: 'hello@localmp', scope: 'user', message: 'Successfully installed plugin: hello@localmp (scope: user)' })
    expect(line(await run('install', 'hello@localmp', '--json'))).toMatchObject({ outcome: 'ok', installedVersion: '1.0.0', availableVersion: '1.0.0' })
    const missing = await run('install', 'nope@localmp', '--json')
    expect(line(missing)).toEqual({ command: 'install', outcome: 'failed', plugin: 'nope@localmp', scope: 'user', message: 'Plugin "nope" not found in marketplace "localmp". Your local copy may be out of date — try `modloop plugin marketplace update localmp`.', failureCode: 'not_found' })
    expect(missing.err).toMatch(/^✘ Failed to install plugin "nope@localmp": Plugin "nope" not found/)

    expect(line(await run('disable', 'hello@localmp', '--json'))).toEqual({ command: 'disable', outcome: 'ok', plugin: 'hello@localmp', pluginId: 'hello@localmp', scope: 'user', message: 'Successfully disabled plugin: hello (scope: user)' })
    const again = await run('disable', 'hello@localmp', '--json')
    expect({ code: again.code, json: line(again) }).toEqual({ code: 1, json: { command: 'disable', outcome: 'failed', plugin: 'hello@localmp', message: 'Plugin "hello@localmp" is already disabled', failureCode: 'already_in_goal_state', alreadyInGoalState: true } })
    expect(line(await run('enable', 'hello@localmp', '--json'))).toMatchObject({ command: 'enable', outcome: 'ok', scope: 'user' })

    expect(line(await run('uninstall', 'hello@localmp', '--json'))).toEqual({ command: 'uninstall', outcome: 'ok', plugin: 'hello@localmp', pluginId: 'hello@localmp', scope: 'user', keptData: false, message: 'Successfully uninstalled plugin: hello (scope: user)' })
    expect(line(await run('uninstall', 'hello@localmp', '--json'))).toMatchObject({ outcome: 'failed', scope: 'user', failureCode: 'not_installed' })
  })
})
