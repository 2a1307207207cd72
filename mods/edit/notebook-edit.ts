import { readFile, stat } from 'node:fs/promises'
import { z } from 'zod'
import { randomHex } from '../../core/random.js'
import type { ToolContext, ToolOutput } from '../../core/tools/tool.js'
import { checkPath } from '../_shared/allowed-paths.js'
import { hashBytes, recordRead, refusalToChange } from '../_shared/read-state.js'
import { failure } from '../_shared/register-tool.js'
import { writeFileAtomic } from '../_shared/text-file.js'
import { builtinInput } from '../_shared/builtin-input.js'

export const notebookEditInput = builtinInput('NotebookEdit', () => z.object({
  notebook_path: z.string().describe('The absolute path of the Jupyter notebook (.ipynb) to edit'),
  cell_id: z.string().optional().describe('The id of the cell, as Read shows it (<cell id="...">). To insert: the cell the new one goes after; without it the new cell goes first'),
  new_source: z.string().describe('The new source of the cell'),
  cell_type: z.enum(['code', 'markdown']).optional().describe('The type of the cell: needed to insert; to replace, the current type is kept unless this is given'),
  edit_mode: z.enum(['replace', 'insert', 'delete']).default('replace').describe('replace (the default), insert or delete'),
}))
export type NotebookEditInput = z.output<ReturnType<typeof notebookEditInput>>

export const NOTEBOOK_EDIT_DESCRIPTION = `Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb).
- The notebook must have been read with Read in this session, and must not have changed since.
- notebook_path must be absolute. cell_id is the id Read shows in <cell id="...">; replace and delete need it.
- edit_mode is replace by default. insert adds a cell after cell_id (first, without one) and needs cell_type; delete removes the cell.
- A replaced code cell loses its outputs and execution count: they belonged to the old source.`

interface Cell { cell_type?: string; id?: string; source?: string | string[]; metadata?: unknown; outputs?: unknown[]; execution_count?: number | null }
interface Notebook { cells: Cell[]; metadata?: { language_info?: { name?: unknown } }; nbformat?: number; nbformat_minor?: number }

/** Where the cell is: by its id, or by the `cell-N` index Read shows for a cell without one. */
function cellIndex(cells: Cell[], id: string): number {
  const byId = cells.findIndex((c) => c.id === id)
  if (byId !== -1) return byId
  const n = /^cell-(\d+)$/.exec(id)?.[1]
  return n !== undefined && Number(n) < cells.length ? Number(n) : -1
}

/** A new cell of the notebook's format: an id from nbformat 4.5 on, as Jupyter gives one. */
function newCell(nb: Notebook, type: 'code' | 'markdown', source: string): Cell {
  const withIds = (nb.nbformat ?? 0) > 4 || ((nb.nbformat ?? 0) === 4 && (nb.nbformat_minor ?? 0) >= 5)
  const id = withIds ? { id: randomHex(4) } : {}
  return type === 'code'
    ? { cell_type: type, ...id, metadata: {}, execution_count: null, outputs: [], source }
    : { cell_type: type, ...id, metadata: {}, source }
}

/** The cell takes the new source (and type): a code cell's outputs were the old source's. */
function replaceCell(cell: Cell, source: string, type: 'code' | 'markdown' | undefined): void {
  cell.source = source
  if (type) cell.cell_type = type
  if (cell.cell_type === 'code') {
    cell.outputs = []
    cell.execution_count = null
  } else {
    delete cell.outputs
    delete cell.execution_count
  }
}

/** The indentation the file was written with (Jupyter's is one space), so a saved notebook diffs cleanly. */
const indentOf = (text: string): number => /^\{\r?\n( +)"/.exec(text)?.[1]?.length ?? 1

export async function notebookEditTool(input: NotebookEditInput, ctx: ToolContext, extraDirs: readonly string[], anywhere = false): Promise<ToolOutput> {
  const checked = await checkPath(input.notebook_path, ctx.cwd, extraDirs, { anywhere })
  if (!checked.ok) return failure(checked.message)
  const shown = input.notebook_path
  if (!shown.endsWith('.ipynb')) return failure(`${shown} is not a Jupyter notebook (.ipynb); change other files with Edit or Write.`)
  const info = await stat(checked.path).catch(() => undefined)
  if (!info?.isFile()) return failure(`Notebook does not exist: ${shown}.`)
  const bytes = await readFile(checked.path)
  const refusal = refusalToChange(ctx.sessionId, checked.path, { mtimeMs: info.mtimeMs, bytes }, shown)
  if (refusal) return failure(refusal)
  const original = bytes.toString('utf8')
  let nb: Notebook
  try {
    nb = JSON.parse(original) as Notebook
  } catch (err) {
    return failure(`${shown} is not valid JSON, so not a notebook it can edit: ${(err as Error).message}`)
  }
  if (!Array.isArray(nb?.cells)) return failure(`${shown} is not a Jupyter notebook: it has no "cells" list.`)

  const mode = input.edit_mode
  let at = -1
  if (input.cell_id !== undefined) {
    at = cellIndex(nb.cells, input.cell_id)
    if (at === -1) return failure(`Cell with ID "${input.cell_id}" not found in notebook.`)
  } else if (mode !== 'insert') {
    return failure(`cell_id is needed to ${mode} a cell: give the id Read shows for it.`)
  }
  let id = input.cell_id
  let type = input.cell_type
  let oldSource: string | undefined
  if (mode === 'insert') {
    if (!type) return failure('cell_type (code or markdown) is needed to insert a cell.')
    const cell = newCell(nb, type, input.new_source)
    nb.cells.splice(at + 1, 0, cell)
    id = cell.id ?? `cell-${at + 1}`
  } else {
    const cell = nb.cells[at]!
    oldSource = Array.isArray(cell.source) ? cell.source.join('') : cell.source ?? ''
    type ??= cell.cell_type === 'markdown' ? 'markdown' : 'code'
    if (mode === 'delete') nb.cells.splice(at, 1)
    else replaceCell(cell, input.new_source, input.cell_type)
  }

  const updated = JSON.stringify(nb, null, indentOf(original)) + (original.endsWith('\n') ? '\n' : '')
  const data = Buffer.from(updated, 'utf8')
  await writeFileAtomic(checked.path, data)
  const written = await stat(checked.path)
  recordRead(ctx.sessionId, checked.path, { mtimeMs: written.mtimeMs, hash: hashBytes(data), whole: true })
  const language = typeof nb.metadata?.language_info?.name === 'string' ? nb.metadata.language_info.name : 'python'
  return {
    // Claude Code's shape, for hooks (tool_response).
    result: {
      new_source: input.new_source, ...(oldSource !== undefined ? { old_source: oldSource } : {}), cell_type: type, language, edit_mode: mode, cell_id: id,
      error: '', notebook_path: shown, original_file: original, updated_file: updated,
    },
    text: mode === 'delete' ? `Deleted cell ${id}` : `${mode === 'insert' ? 'Inserted' : 'Updated'} cell ${id} with ${input.new_source}`,
  }
}
