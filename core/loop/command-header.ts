import type { TextBlockParam } from '@anthropic-ai/sdk/resources/messages'

/**
 * The text a typed prompt command is recorded and sent as, ahead of its rendered body, as Claude
 * Code writes it (spec loop-and-sdk §6.2): the model can tell that a command ran, and with what,
 * from the body alone it cannot. No args, no `<command-args>` line.
 */
export function commandHeader(name: string, args: string): string {
  const lines = [`<command-message>${name}</command-message>`, `<command-name>/${name}</command-name>`]
  if (args !== '') lines.push(`<command-args>${args}</command-args>`)
  return lines.join('\n')
}

const HEADER = /^<command-message>[^<]*<\/command-message>\n<command-name>\/([^<\s]+)<\/command-name>(?:\n<command-args>([\s\S]*)<\/command-args>)?\n?$/

/** A command header read back as the person typed it (`/hello world`), for listings and screens; undefined for any other text. */
export function typedCommand(text: string): string | undefined {
  const m = HEADER.exec(text)
  return m ? `/${m[1]}${m[2] ? ` ${m[2]}` : ''}` : undefined
}

/**
 * What a local command (/cost, /model, /compact) leaves in the history, as Claude Code leaves it:
 * a caveat, the command as typed and what it printed. The model then knows, say, that the person
 * switched models or compacted, and does not take the output for a request. The lines' indentation
 * is Claude Code's own, kept so a session moved between the two reads the same.
 */
export function localCommandRecord(name: string, args: string, output: string): TextBlockParam[] {
  return [
    { type: 'text', text: '<local-command-caveat>The command below was run by the user directly, not sent to you as a request; its output went straight to the user. It is recorded here only as context for later messages.</local-command-caveat>\n' },
    { type: 'text', text: `<command-name>/${name}</command-name>\n            <command-message>${name}</command-message>\n            <command-args>${args}</command-args>\n` },
    { type: 'text', text: `<local-command-stdout>${output}</local-command-stdout>\n` },
  ]
}
