/** `mcp__<server>__<tool>`, each part reduced to the characters a tool name may hold. */
export function mcpToolName(server: string, tool: string): string {
  const part = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, '_')
  return `mcp__${part(server)}__${part(tool)}`
}
