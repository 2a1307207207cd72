import type { ToolResultContent } from '../../core/tools/tool.js'
import { imageHeader } from './image-header.js'

/** A notebook over this is refused, as in Claude Code. */
export const MAX_NOTEBOOK_BYTES = 100 * 1024 * 1024
/** A cell whose outputs hold more characters than this shows how to get them instead (Claude Code's figure). */
export const MAX_CELL_OUTPUT_CHARS = 10_000

type Text = string | string[] | undefined
interface Output { output_type?: string; name?: string; text?: Text; data?: Record<string, unknown>; ename?: string; evalue?: string; traceback?: string[] }
interface Cell { cell_type?: string; id?: string; source?: Text; outputs?: Output[] }

export type Notebook = { ok: true; cells: RenderedCell[]; content: ToolResultContent[] } | { ok: false; message: string }

/** One cell as hooks see it (Claude Code's shape). */
export interface RenderedCell { cellType: string; source: string; cell_id: string; language?: string; outputs?: (RenderedOutput | null)[] }
/** An output; null for one of a type not shown. */
export interface RenderedOutput { output_type: string; text: string; image?: { image_data: string; media_type: string } }

const joined = (t: Text) => (Array.isArray(t) ? t.join('') : typeof t === 'string' ? t : '')

/**
 * A Jupyter notebook as Claude Code's Read gives it: every cell in `<cell id="…">` tags (the type
 * named unless code, the language unless Python), each output after it (stream text, results'
 * text/plain, errors with their traceback), PNG and JPEG outputs as image blocks; neighbouring
 * text blocks are joined.
 */
export function renderNotebook(json: string, shown: string): Notebook {
  let nb: { cells?: unknown; metadata?: { language_info?: { name?: unknown } } }
  try {
    nb = JSON.parse(json) as typeof nb
  } catch (err) {
    return { ok: false, message: `${shown} is not valid JSON, so not a readable notebook (it may be truncated, corrupted, or still being written): ${(err as Error).message}` }
  }
  const cells = nb?.cells
  if (!Array.isArray(cells) || !cells.every((c) => typeof c === 'object' && c !== null && (typeof c.source === 'string' || Array.isArray(c.source)))) {
    return { ok: false, message: `${shown} is not a valid Jupyter notebook (top-level "cells" must be an array of cell objects, each with a string or string-array "source").` }
  }
  const language = typeof nb.metadata?.language_info?.name === 'string' ? nb.metadata.language_info.name : 'python'
  const rendered = (cells as Cell[]).map((c, i) => renderCell(c, i, language))
  const blocks = rendered.flatMap(cellBlocks)
  const content: ToolResultContent[] = []
  for (const b of blocks) {
    const last = content.at(-1)
    if (last?.type === 'text' && b.type === 'text') last.text += `\n${b.text}`
    else content.push(b)
  }
  return { ok: true, cells: rendered, content }
}

function renderCell(cell: Cell, index: number, language: string): RenderedCell {
  const type = cell.cell_type ?? 'code'
  const out: RenderedCell = { cellType: type, source: joined(cell.source), cell_id: cell.id ?? `cell-${index}` }
  if (type !== 'code') return out
  out.language = language
  const outputs = (cell.outputs ?? []).map(renderOutput)
  const size = outputs.reduce((n, o) => n + (o?.text.length ?? 0) + (o?.image?.image_data.length ?? 0), 0)
  if (size > MAX_CELL_OUTPUT_CHARS) {
    out.outputs = [{ output_type: 'stream', text: `Outputs are too large to include. Use Bash with: cat <notebook_path> | jq '.cells[${index}].outputs'` }]
  } else if (outputs.length) {
    out.outputs = outputs
  }
  return out
}

function renderOutput(o: Output): RenderedOutput | null {
  switch (o?.output_type) {
    case 'stream': return { output_type: 'stream', text: joined(o.text) }
    case 'execute_result':
    case 'display_data': {
      const image = imageOf(o.data)
      return { output_type: o.output_type, text: joined(o.data?.['text/plain'] as Text), ...(image ? { image } : {}) }
    }
    case 'error': return { output_type: 'error', text: [`${o.ename}: ${o.evalue}`, ...(o.traceback ?? [])].join('\n') }
    // Told of after the cell.
    default: return null
  }
}

/** A PNG or JPEG output, when its base64 holds the image it says (a wrong one would fail every later request). */
function imageOf(data: Record<string, unknown> | undefined): { image_data: string; media_type: string } | undefined {
  for (const media of ['image/png', 'image/jpeg']) {
    const raw = data?.[media]
    if (typeof raw !== 'string' && !Array.isArray(raw)) continue
    const b64 = joined(raw as Text).replace(/\s/g, '')
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined
    const header = imageHeader(Buffer.from(b64.slice(0, 4096), 'base64'))
    return header && header.type === media && header.width ? { image_data: b64, media_type: media } : undefined
  }
  return undefined
}

function cellBlocks(c: RenderedCell): ToolResultContent[] {
  const tags = `${c.cellType !== 'code' ? `<cell_type>${c.cellType}</cell_type>` : ''}${c.cellType === 'code' && c.language !== 'python' ? `<language>${c.language}</language>` : ''}`
  const blocks: ToolResultContent[] = [{ type: 'text', text: `<cell id="${c.cell_id}">${tags}${c.source}</cell id="${c.cell_id}">` }]
  const outputs = c.outputs ?? []
  for (const o of outputs) {
    if (!o) continue
    if (o.text) blocks.push({ type: 'text', text: `\n${o.text}` })
    if (o.image) blocks.push({ type: 'image', source: { type: 'base64', media_type: o.image.media_type as 'image/png', data: o.image.image_data } })
  }
  if (outputs.some((o) => !o)) blocks.push({ type: 'text', text: '\nOutputs of an unknown type are not shown.' })
  return blocks
}
