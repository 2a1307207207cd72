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
