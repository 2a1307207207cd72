import { defineMod, type ModDefinition } from '../../core/mod/define.js'
import type { ModApi } from '../../core/mod/api.js'
import { delegateTool } from '../_shared/tool-delegate.js'
import { unreadCheck } from '../_shared/unread-change.js'
import type { Editor } from './editor.js'
import { editorEdit, editorRead, editorWrite } from './editor-files.js'
import { editorBash } from './editor-terminal.js'

export type { Editor, TerminalOutcome, TerminalRun } from './editor.js'

export interface AcpClientOptions {
  editor: Editor
  /** Called as the session starts, with the mod's `$` (the permissions mod's API is read through it). */
  started?($: ModApi, sessionId: string): void
}

/**
 * The session side of `modloop acp`: Read, Write and Edit go through the editor's buffers when it
 * offers them, Bash through its terminals; otherwise the local tools run. Added to a session only
 * by the ACP front end, which builds one per session around its connection.
 */
export function acpClientMod(options: AcpClientOptions): ModDefinition {
  return defineMod({
    name: 'acp-client',
    description: 'Tools through the editor connected over the Agent Client Protocol',
    // The front end reads the rule store and the mode through this mod's `$` (cli/acp/permissions-api.ts).
    uses: { permissions: 'optional', permissionMode: 'optional' },
    register(on) {
      const undo = new Map<string, (() => void)[]>()
      on('session.start', async ($, e, next) => {
        const { editor } = options
        const files = editor.readTextFile && editor.writeTextFile ? { readTextFile: editor.readTextFile, writeTextFile: editor.writeTextFile } : undefined
        const disposers = [
          ...(files ? [delegateTool(e.sessionId, 'Read', editorRead(files)), delegateTool(e.sessionId, 'Write', editorWrite(files, unreadCheck($))), delegateTool(e.sessionId, 'Edit', editorEdit(files, unreadCheck($)))] : []),
          ...(editor.runInTerminal ? [delegateTool(e.sessionId, 'Bash', editorBash(editor.runInTerminal))] : []),
        ]
        undo.set(e.sessionId, disposers)
        options.started?.($, e.sessionId)
        return next(e)
      })
      on('session.end', ($, e, next) => {
        for (const dispose of undo.get(e.sessionId) ?? []) dispose()
        undo.delete(e.sessionId)
        return next(e)
      })
    },
  })
}
