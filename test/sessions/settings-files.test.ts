import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { directSettingsReader, type SettingsFileReader } from '../../hooks-runner/read-settings.js'
import { SettingsFiles } from '../../runtime/settings-files.js'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'modloop-settings-files-')) })
afterAll(() => rm(dir, { recursive: true, force: true }))

/** The disk reader, with a record of each file it read and each folder it listed. */
function countingDisk(): SettingsFileReader & { reads: string[]; lists: string[] } {
  const reads: string[] = []
  const lists: string[] = []
  return {
    reads, lists,
    read: (file) => { reads.push(file); return directSettingsReader.read(file) },
    managedFiles: (d) => { lists.push(d); return directSettingsReader.managedFiles(d) },
  }
}

const jsonOf = async (files: SettingsFiles, file: string) => {
  const read = await files.read(file)
  return read.status === 'ok' ? read.json : read.status
}

describe('SettingsFiles: the settings files of a session', () => {
  it('while held, each file is read once for every reader, and readers started together share the read', async () => {
    const file = join(dir, 'held.json')
    await writeFile(file, '{"a":1}')
    const disk = countingDisk()
    const files = new SettingsFiles(disk)
    const release = files.hold()
    const [x, y] = await Promise.all([files.read(file), files.read(file)])
    expect(x).toBe(y)
    expect(await jsonOf(files, file)).toEqual({ a: 1 })
    expect(await files.read(join(dir, 'missing.json'))).toEqual({ status: 'absent' })
    await files.read(join(dir, 'missing.json'))
    expect(disk.reads).toEqual([file, join(dir, 'missing.json')])
    release()
  })

  it('a bad file is the same error, naming it, for every reader', async () => {
    const file = join(dir, 'bad.json')
    await writeFile(file, '{ "permissions": ')
    const files = new SettingsFiles()
    const release = files.hold()
    const first = await files.read(file)
    expect(first).toMatchObject({ status: 'error', error: { message: expect.stringContaining(`${file}: not valid JSON`) } })
    expect(await files.read(file)).toBe(first)
    release()
  })

  it('outside a start every read goes to disk, so a file edited mid-session is read as it is now', async () => {
    const file = join(dir, 'live.json')
    await writeFile(file, '{"v":1}')
    const disk = countingDisk()
    const files = new SettingsFiles(disk)
    await files.during(async () => expect(await jsonOf(files, file)).toEqual({ v: 1 }))
    await writeFile(file, '{"v":2}')
    expect(await jsonOf(files, file)).toEqual({ v: 2 })
    expect(await jsonOf(files, file)).toEqual({ v: 2 })
    expect(disk.reads).toHaveLength(3)
  })

  it('a file the session writes is read afresh; forgetting everything reads every file afresh', async () => {
    const a = join(dir, 'written.json')
    const b = join(dir, 'other.json')
    await writeFile(a, '{"v":1}')
    await writeFile(b, '{"w":1}')
    const files = new SettingsFiles()
    const release = files.hold()
    await files.read(a)
    await files.read(b)
    await writeFile(a, '{"v":2}')
    await writeFile(b, '{"w":2}')
    files.forget(a)
    expect(await jsonOf(files, a)).toEqual({ v: 2 })
    expect(await jsonOf(files, b)).toEqual({ w: 1 })
    files.forget()
    expect(await jsonOf(files, b)).toEqual({ w: 2 })
    release()
  })

  it('holds nest: the files are dropped when the last one is released, and a release counts once', async () => {
    const file = join(dir, 'nested.json')
    await writeFile(file, '{}')
    const disk = countingDisk()
    const files = new SettingsFiles(disk)
    const outer = files.hold()
    const inner = files.hold()
    await files.read(file)
    inner()
    inner()
    await files.read(file)
    expect(disk.reads).toHaveLength(1)
    outer()
    await files.read(file)
    expect(disk.reads).toHaveLength(2)
  })

  it('the managed folder is listed once while held, each caller given its own copy of the list', async () => {
    const managed = join(dir, 'managed')
    await mkdir(join(managed, 'managed-settings.d'), { recursive: true })
    await writeFile(join(managed, 'managed-settings.d', '10-a.json'), '{}')
    const disk = countingDisk()
    const files = new SettingsFiles(disk)
    await files.during(async () => {
      const first = await files.managedFiles(managed)
      first.push('changed by its caller')
      expect(await files.managedFiles(managed)).toEqual([join(managed, 'managed-settings.json'), join(managed, 'managed-settings.d', '10-a.json')])
    })
    expect(disk.lists).toEqual([managed])
  })
})
