/** The system prompt a request sent, as one text: its blocks (one per section) read in order. */
export function systemText(body: { system?: unknown }): string {
  const { system } = body
  if (Array.isArray(system)) return system.map((b: { text?: string }) => b.text ?? '').join('')
  return typeof system === 'string' ? system : ''
}
