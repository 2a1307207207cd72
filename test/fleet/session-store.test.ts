import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { transcriptPath } from '../../mods/transcripts/store/paths.js'
import { PostgresStore } from '../../mods/transcripts/store/postgres/pg-store.js'
import { freshDatabase, sql, tempDir } from './helpers.js'

let url: string
let cwd: string
beforeAll(async () => {
  url = await freshDatabase()
  cwd = tempDir('fleet-project')
  writeFileSync(join(cwd, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'] }))
})

// Each home is another machine: nothing of one is seen by another but through the database.
const run = (args: string[], home: string, script: unknown[]) => runCli(args, { script, cwd, env: { MODLOOP_HOME: home } })
const texts = (request: { body: unknown }) => (request.body as { messages: { content: { text?: string }[] }[] }).messages.map((m) => m.content[0]?.text)
const storedLines = async (id: string) => (await sql<{ line: string }>(url, `SELECT line FROM modloop.session_line WHERE session_id = $1 AND agent_id = '' ORDER BY seq`, [id])).map((r) => r.line)

describe('the Postgres session store', () => {
  it('keeps the same lines as the transcript; a session written on one machine resumes on another; list and show read it', async () => {
    const [a, b, c] = [tempDir('home-a'), tempDir('home-b'), tempDir('home-c')]
    const first = await run(['-p', 'the first prompt', '--session-store', url, '--output-format', 'json'], a, [{ reply: 'first answer' }])
    expect(first.code, first.err).toBe(0)
    const id = JSON.parse(first.out).session_id as string
    const local = readFileSync(transcriptPath(cwd, id, { MODLOOP_HOME: a }), 'utf8')
    expect(await storedLines(id)).toEqual(local.trimEnd().split('\n'))

    const second = await run(['-p', 'the second prompt', '--resume', id, '--session-store', url, '--output-format', 'json'], b, [{ reply: 'second answer' }])
    expect(second.code, second.err).toBe(0)
    expect(JSON.parse(second.out).session_id).toBe(id)
    expect(texts(second.requests[0]!)).toEqual(['the first prompt', 'first answer', 'the second prompt'])
    const lines = await storedLines(id)
    expect(lines.slice(0, local.trimEnd().split('\n').length).join('\n')).toBe(local.trimEnd())
    expect(readFileSync(transcriptPath(cwd, id, { MODLOOP_HOME: b }), 'utf8')).toBe(`${lines.join('\n')}\n`)

    const list = await run(['sessions', 'list', '--json', '--session-store', url], c, [])
    expect(JSON.parse(list.out)).toEqual([expect.objectContaining({ sessionId: id, firstPrompt: 'the first prompt', turns: 2, messages: 4 })])
    const show = await run(['sessions', 'show', id, '--session-store', url], c, [])
    expect(show.out).toContain('> the first prompt')
    expect(show.out).toContain('> the second prompt')
    expect(show.out).toContain('second answer')
  })

  it('one writer per session: a second holder is refused, naming the first, until it lets go', async () => {
    const id = '0b7c1a52-3d4e-4f60-8a1b-2c3d4e5f6a7b'
    const [one, two] = [new PostgresStore(url), new PostgresStore(url)]
    try {
      const release = await one.hold(one.locationOf(cwd, id, { MODLOOP_HOME: tempDir('home-d') }), id)
      await expect(two.hold(two.locationOf(cwd, id, { MODLOOP_HOME: tempDir('home-e') }), id)).rejects.toMatchObject({ code: 'MODLOOP_ERR_SESSION_LOCKED', message: expect.stringContaining(`modloop sessions`) })
      await expect(one.hold(one.locationOf(cwd, id, { MODLOOP_HOME: tempDir('home-f') }), id)).rejects.toMatchObject({ code: 'MODLOOP_ERR_SESSION_LOCKED', message: expect.stringContaining('this process') })
      release()
      await one.settled()
      const again = await two.hold(two.locationOf(cwd, id, { MODLOOP_HOME: tempDir('home-g') }), id)
      again()
    } finally {
      await Promise.all([one.close(), two.close()])
    }
  })

  it('sessions push and pull move a session both ways: local, resumed from Postgres, back to local', async () => {
    const [a, b] = [tempDir('home-a'), tempDir('home-b')]
    const local = await run(['-p', 'started here', '--output-format', 'json'], a, [{ reply: 'local answer' }])
    const id = JSON.parse(local.out).session_id as string
    expect(await storedLines(id)).toEqual([])

    const pushed = await run(['sessions', 'push', id, '--session-store', url], a, [])
    expect(pushed.code, pushed.err).toBe(0)
    expect(pushed.out).toMatch(new RegExp(`pushed session ${id}: \\d+ lines`))
    const remote = await run(['-p', 'resumed from Postgres', '--resume', id, '--session-store', url, '--output-format', 'json'], b, [{ reply: 'remote answer' }])
    expect(remote.code, remote.err).toBe(0)
    expect(texts(remote.requests[0]!)).toEqual(['started here', 'local answer', 'resumed from Postgres'])

    const pulled = await run(['sessions', 'pull', id, '--session-store', url], a, [])
    expect(pulled.out).toMatch(new RegExp(`pulled session ${id}: \\d+ lines`))
    const back = await run(['-p', 'back on the files', '--resume', id, '--output-format', 'json'], a, [{ reply: 'done' }])
    expect(texts(back.requests[0]!)).toEqual(['started here', 'local answer', 'resumed from Postgres', 'remote answer', 'back on the files'])
    expect((await run(['sessions', 'push', id, '--session-store', url], a, [])).out).toMatch(/pushed session .*: \d+ lines/)
    expect((await run(['sessions', 'push', id, '--session-store', url], a, [])).out).toContain('has all of')

    // Both sides went on from the same point: neither copy is the other's history any more.
    await run(['-p', 'only in Postgres', '--resume', id, '--session-store', url], b, [{ reply: 'x' }])
    await run(['-p', 'only here', '--resume', id], a, [{ reply: 'y' }])
    const refused = await run(['sessions', 'push', id, '--session-store', url], a, [])
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/MODLOOP_ERR_SESSION: cannot push session .*: its transcript differs from line \d+ on/)
  })

  it("a config's sessionStore names the store; a bad one is refused naming its file", async () => {
    const project = tempDir('fleet-configured')
    writeFileSync(join(project, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'], sessionStore: { postgres: url } }))
    const ran = await runCli(['-p', 'kept in Postgres', '--output-format', 'json'], { script: [{ reply: 'ok' }], cwd: project, env: { MODLOOP_HOME: tempDir('home-h') } })
    expect(ran.code, ran.err).toBe(0)
    expect((await storedLines(JSON.parse(ran.out).session_id)).length).toBeGreaterThan(0)

    writeFileSync(join(project, 'modloop.config.json'), JSON.stringify({ mods: ['transcripts'], sessionStore: { postgres: 'mysql://nope' } }))
    const bad = await runCli(['-p', 'x'], { script: [], cwd: project, env: { MODLOOP_HOME: tempDir('home-i') } })
    expect(bad.code).toBe(1)
    expect(bad.err).toContain(`${join(project, 'modloop.config.json')}: sessionStore.postgres: expected a postgres:// URL`)
  })
})

describe('a new database', () => {
  it('takes the fleet tables and the session tables from processes starting at once: both make the schema under one lock', async () => {
    const { default: pg } = await import('pg')
    const { ensureFleetSchema } = await import('../../cli/fleet/fleet-schema.js')
    const { ensureSessionSchema } = await import('../../mods/transcripts/store/postgres/schema.js')
    // Each round a fresh database and two pools, as a worker and a `submit` are two processes.
    for (let round = 0; round < 6; round++) {
      const fresh = await freshDatabase()
      const pools = [new pg.Pool({ connectionString: fresh }), new pg.Pool({ connectionString: fresh })]
      try {
        await Promise.all([ensureFleetSchema(pools[0]!), ensureSessionSchema(pools[1]!)])
      } finally {
        await Promise.all(pools.map((p) => p.end()))
      }
      expect(await sql(fresh, `SELECT to_regclass('modloop.queue_throttle') IS NOT NULL AS a, to_regclass('modloop.session_line') IS NOT NULL AS b`)).toEqual([{ a: true, b: true }])
    }
  })

  it('opens the queue from processes starting at once: pg-boss is set up under a lock (unguarded, two starts collided on its schema or deadlocked making the queue)', async () => {
    const { openQueue, QUEUE } = await import('../../cli/fleet/queue.js')
    for (let round = 0; round < 10; round++) {
      const fresh = await freshDatabase()
      const opened = await Promise.allSettled([0, 1].map((i) => openQueue(fresh, { role: `test-${i}`, supervise: i === 0, log: () => {} })))
      await Promise.all(opened.map((o) => (o.status === 'fulfilled' ? o.value.close() : undefined)))
      expect(opened.map((o) => (o.status === 'rejected' ? String(o.reason) : 'open'))).toEqual(['open', 'open'])
      expect(await sql(fresh, 'SELECT name FROM pgboss.queue')).toEqual([{ name: QUEUE }])
    }
  })
})
