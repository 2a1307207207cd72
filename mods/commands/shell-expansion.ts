import { childProcess } from '../../hooks-runner/child-process.js'
import { SHELL_DISABLED } from './shell-policy.js'

export interface ShellContext {
  cwd: string
  timeoutMs: number
  maxOutputChars: number
  /** The permission verdict for running `command`; a reason refuses it. */
  refuse(command: string): Promise<string | undefined>
  /** Whether the settings turn shell lines off (`disableSkillShellExecution`): each is then replaced by a note, not run. */
  disabled?(): Promise<boolean>
}

/**
 * A shell line the permission check did not allow: the whole command or skill is refused, as in
 * Claude Code, rather than sent with a hole where the line's output was to be.
 */
export class ShellLineRefused extends Error {
  constructor(readonly command: string, readonly reason: string) {
    super(`the shell command \`${command}\` it runs was not allowed: ${reason}`)
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*(\S*)/
const INLINE = /!`([^`\n]+)`/g

/**
 * Runs the shell commands a command body embeds, in order, each replaced by its output: the
 * inline form !`cmd`, and fenced blocks whose info string is `!`. Plain code fences are examples,
 * not commands, and stay as written; so is a line that merely starts with `!` (`!important`,
 * `!!! note`), which Claude Code leaves as prose too.
 */
export async function expandShell(body: string, ctx: ShellContext): Promise<string> {
  if (!body.includes('!')) return body
  const out: string[] = []
  const lines = body.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const fence = FENCE.exec(line)
    if (fence) {
      const close = lines.findIndex((l, j) => j > i && l.trim().startsWith(fence[1]!) && l.trim().replace(/[`~]/g, '') === '')
      const end = close === -1 ? lines.length : close
      if (fence[2] === '!') out.push(await run(lines.slice(i + 1, end).join('\n'), ctx))
      else out.push(...lines.slice(i, end + 1))
      i = end
      continue
    }
    out.push(await replaceInline(line, ctx))
  }
  return out.join('\n')
}

async function replaceInline(line: string, ctx: ShellContext): Promise<string> {
  if (!line.includes('!`')) return line
  let result = ''
  let last = 0
  for (const m of line.matchAll(INLINE)) {
    result += line.slice(last, m.index) + (await run(m[1]!, ctx))
    last = m.index! + m[0].length
  }
  return result + line.slice(last)
}

async function run(command: string, ctx: ShellContext): Promise<string> {
  if (await ctx.disabled?.()) return SHELL_DISABLED
  const refused = await ctx.refuse(command)
  if (refused) throw new ShellLineRefused(command, refused)
  const r = await runSh(command, ctx)
  const notes = [
    ...(r.timedOut ? [`[stopped after ${ctx.timeoutMs} ms]`] : []),
    ...(r.code !== 0 && r.code !== null ? [`[exit code ${r.code}]`] : []),
  ]
  const output = r.code === 0 ? r.stdout : [r.stdout, r.stderr].filter(Boolean).join('\n')
  return [output.trimEnd(), ...notes].filter(Boolean).join('\n')
}

interface ShResult { stdout: string; stderr: string; code: number | null; timedOut: boolean }

/** `sh -c` in a process group of its own, so a timeout ends everything the command started. */
function runSh(command: string, ctx: ShellContext): Promise<ShResult> {
  return new Promise((resolve) => {
    const group = process.platform !== 'win32'
    const child = childProcess().spawn('sh', ['-c', command], { cwd: ctx.cwd, detached: group, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true })
    const take = (into: { text: string }) => (d: Buffer) => {
      if (into.text.length < ctx.maxOutputChars) into.text += d.toString('utf8')
    }
    const stdout = { text: '' }
    const stderr = { text: '' }
    child.stdout.on('data', take(stdout))
    child.stderr.on('data', take(stderr))
    let timedOut = false
    let code: number | null = null
    const killAll = () => {
      try {
        if (group && child.pid) process.kill(-child.pid, 'SIGKILL')
        else child.kill('SIGKILL')
      } catch { /* already gone */ }
    }
    const timer = setTimeout(() => { timedOut = true; killAll() }, ctx.timeoutMs)
    // Whatever the command left running in the background would hold the pipes open: end it too.
    child.once('exit', (c) => { code = c; killAll() })
    child.once('close', () => {
      clearTimeout(timer)
      const cap = (t: string) => (t.length > ctx.maxOutputChars ? `${t.slice(0, ctx.maxOutputChars)}\n[output cut at ${ctx.maxOutputChars} characters]` : t)
      resolve({ stdout: cap(stdout.text), stderr: cap(stderr.text), code, timedOut })
    })
    child.once('error', (err) => {
      clearTimeout(timer)
      resolve({ stdout: '', stderr: err.message, code: 127, timedOut: false })
    })
  })
}
