import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import editMod from '../../mods/edit/index.js'
import readMod from '../../mods/read/index.js'
import { openTools, tempDir, type Tools } from './harness.js'

let tmp: Awaited<ReturnType<typeof tempDir>>
let tools: Tools
let nb: string
beforeAll(async () => {
  tmp = await tempDir()
  tools = await openTools(tmp.dir, [readMod, editMod])
})
afterAll(async () => {
  await tools.close()
  await tmp.remove()
})

// As Jupyter writes one: one-space indent, sources as lists of lines, a trailing newline.
const notebook = (minor = 5) => `${JSON.stringify({
  cells: [
    { cell_type: 'markdown', ...(minor >= 5 ? { id: 'intro' } : {}), metadata: {}, source: ['# Title\n', 'Some text'] },
    { cell_type: 'code', execution_count: 1, ...(minor >= 5 ? { id: 'c2' } : {}), metadata: {}, outputs: [{ name: 'stdout', output_type: 'stream', text: ['hi\n'] }], source: ["print('hi')"] },
  ],
  metadata: { language_info: { name: 'python' } }, nbformat: 4, nbformat_minor: minor,
}, null, 1)}\n`
const cells = async () => JSON.parse(await readFile(nb, 'utf8')).cells as Record<string, any>[]

beforeEach(async () => {
  nb = join(tmp.dir, `n${Math.random().toString(36).slice(2)}.ipynb`)
  await writeFile(nb, notebook())
})

describe('Edit of a notebook', () => {
  it('is refused, read or not, and points to NotebookEdit; a new one may still be created', async () => {
    const refused = { isError: true, text: `${nb} is a Jupyter notebook; change its cells with NotebookEdit.` }
    expect(await tools.call('Edit', { file_path: nb, old_string: "print('hi')", new_string: 'x' })).toMatchObject(refused)
    await tools.call('Read', { file_path: nb })
    expect(await tools.call('Edit', { file_path: nb, old_string: "print('hi')", new_string: 'x' })).toMatchObject(refused)
    expect(await readFile(nb, 'utf8')).toBe(notebook())
    const created = join(tmp.dir, 'created.ipynb')
    expect((await tools.call('Edit', { file_path: created, old_string: '', new_string: '{}' })).isError).toBe(false)
  })
})

describe('NotebookEdit', () => {
  it('needs a Read first, as Edit does', async () => {
    const r = await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'c2', new_source: 'x' })
    expect(r).toMatchObject({ isError: true, text: `${nb} has not been read in this session. Read it first, then try again.` })
  })

  it('replaces a cell by its id: a code cell loses its outputs; the file keeps its indent and final newline', async () => {
    await tools.call('Read', { file_path: nb })
    const r = await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'c2', new_source: "print('bye')" })
    expect(r).toMatchObject({ isError: false, text: "Updated cell c2 with print('bye')" })
    expect(r.result).toMatchObject({ new_source: "print('bye')", old_source: "print('hi')", cell_type: 'code', language: 'python', edit_mode: 'replace', cell_id: 'c2', notebook_path: nb })
    expect((await cells())[1]).toEqual({ cell_type: 'code', execution_count: null, id: 'c2', metadata: {}, outputs: [], source: "print('bye')" })
    const text = await readFile(nb, 'utf8')
    expect(text.startsWith('{\n "cells": [\n  {')).toBe(true)
    expect(text.endsWith('}\n')).toBe(true)
    // Its own write counts as read: a second edit needs no new Read.
    expect(await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'intro', new_source: 'y = 2', cell_type: 'code' })).toMatchObject({ isError: false })
    expect((await cells())[0]).toEqual({ cell_type: 'code', id: 'intro', metadata: {}, source: 'y = 2', outputs: [], execution_count: null })
  })

  it('inserts after a cell or first, with a new id; deletes; refuses an unknown id and an insert without a type', async () => {
    await tools.call('Read', { file_path: nb })
    const after = await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'intro', new_source: 'x = 1', cell_type: 'code', edit_mode: 'insert' })
    const id = (after.result as { cell_id: string }).cell_id
    expect(id).toMatch(/^[0-9a-f]{8}$/)
    expect(after.text).toBe(`Inserted cell ${id} with x = 1`)
    const first = await tools.call('NotebookEdit', { notebook_path: nb, new_source: 'Intro', cell_type: 'markdown', edit_mode: 'insert' })
    expect(first.isError).toBe(false)
    expect((await cells()).map((c) => c.source)).toEqual(['Intro', ['# Title\n', 'Some text'], 'x = 1', ["print('hi')"]])
    expect(await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'intro', new_source: '', edit_mode: 'delete' })).toMatchObject({ isError: false, text: 'Deleted cell intro' })
    expect((await cells()).map((c) => c.id)).not.toContain('intro')
    expect(await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'nope', new_source: 'y' })).toMatchObject({ isError: true, text: 'Cell with ID "nope" not found in notebook.' })
    expect(await tools.call('NotebookEdit', { notebook_path: nb, new_source: 'y', edit_mode: 'insert' })).toMatchObject({ isError: true, text: 'cell_type (code or markdown) is needed to insert a cell.' })
  })

  it('takes the cell-N index Read shows for a notebook without cell ids, and gives new cells none', async () => {
    await writeFile(nb, notebook(4))
    await tools.call('Read', { file_path: nb })
    expect(await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'cell-1', new_source: '1 + 1' })).toMatchObject({ isError: false, text: 'Updated cell cell-1 with 1 + 1' })
    await tools.call('NotebookEdit', { notebook_path: nb, cell_id: 'cell-0', new_source: 'More', cell_type: 'markdown', edit_mode: 'insert' })
    expect(await cells()).toEqual([
      expect.objectContaining({ source: ['# Title\n', 'Some text'] }),
      { cell_type: 'markdown', metadata: {}, source: 'More' },
      expect.objectContaining({ source: '1 + 1' }),
    ])
  })

  it('edits notebooks only', async () => {
    const other = join(tmp.dir, 'notes.json')
    await writeFile(other, '{}')
    expect(await tools.call('NotebookEdit', { notebook_path: other, cell_id: 'a', new_source: 'x' })).toMatchObject({ isError: true, text: `${other} is not a Jupyter notebook (.ipynb); change other files with Edit or Write.` })
  })
})
