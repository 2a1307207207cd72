import type { ShellRun } from './run-shell.js'
import { sizeOf } from '../../hooks-runner/size-of.js'

/**
 * What the model reads of a run: `lead` (a line put first), stdout, stderr and the notes, within `cap` characters all told,
 * so a tool-result budget of the same figure never moves it to a file. When the output had to be
 * cut, the whole of it is saved and the last note says where (`rawOutputPath`).
 */
export async function modelText(run: Pick<ShellRun, 'stdout' | 'stderr' | 'full'>, notes: string[], o: { cap: number; failed: boolean; lead?: string }): Promise<{ text: string; rawOutputPath?: string }> {
  const { stdout, stderr } = run
  const join = (out: string, err: string, extra: string[]) =>
    [o.lead ?? '', [out.replace(/\n+$/, ''), err.replace(/\n+$/, '')].filter((s) => s !== '').join('\n') || (o.failed ? '' : '(Bash completed with no output)'), ...extra].filter((s) => s !== '').join('\n')
  const whole = join(stdout.text(), stderr.text(), notes)
  if (!stdout.truncated && !stderr.truncated && whole.length <= o.cap) {
    await run.full.save(false)
    return { text: whole }
  }
  const saved = await run.full.save(true)
  const total = stdout.length + stderr.length
  const tail = [...notes, savedNote(saved, total, run.full.kept)]
  // Separators, the lead and the notes come first out of the budget; the streams share what is left.
  const room = Math.max(0, o.cap - [o.lead ?? '', ...tail].reduce((n, s) => n + s.length + 1, 0) - 1)
  const [outRoom, errRoom] = share(stdout.length, stderr.length, room)
  const text = join(stdout.text(outRoom), stderr.text(errRoom), tail)
  return { text, ...(saved ? { rawOutputPath: saved } : {}) }
}

/** Says how much was kept and where: never "the full output" of a file its cap cut short. */
function savedNote(saved: string | undefined, total: number, kept: number): string {
  if (!saved) return `The output was ${total} characters; only its start and end are shown.`
  if (kept >= total) return `The full output (${total} characters) was saved to: ${saved}`
  return `The output was ${sizeOf(total)}; the first ${sizeOf(kept)} of it were saved to: ${saved}`
}

/** Splits `room` between two lengths: a short one keeps all it has, the long one takes the rest. */
function share(a: number, b: number, room: number): [number, number] {
  const half = Math.floor(room / 2)
  if (a + b <= room) return [a, b]
  if (b <= half) return [room - b, b]
  if (a <= half) return [a, room - a]
  return [room - half, half]
}
