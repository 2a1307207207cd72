import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { describeError } from '../../core/errors.js'
import { onFirstUse } from '../../core/on-first-use.js'

export const MARKETPLACE_FILE = join('.claude-plugin', 'marketplace.json')

// Claude Code's required fields: a plugin's `source` is a "./" path in the marketplace, or an object naming a remote.
const entrySchema = onFirstUse(() => z.looseObject({
  name: z.string().min(1),
  source: z.union([z.string().startsWith('./'), z.looseObject({ source: z.string() })]),
  version: z.string().optional(),
  description: z.string().optional(),
}))
export const marketplaceSchema = onFirstUse(() => z.looseObject({
  name: z.string().min(1),
  owner: z.looseObject({ name: z.string().optional() }),
  description: z.string().optional(),
  plugins: z.array(entrySchema()),
}))

export type MarketplaceManifest = z.output<ReturnType<typeof marketplaceSchema>>
export type MarketplaceEntry = MarketplaceManifest['plugins'][number]

/** zod's issues as Claude Code lists them: `path: message`. */
export const issueLines = (error: z.ZodError): string[] => error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)

/**
 * Reads `<dir>/.claude-plugin/marketplace.json`, throwing an Error worded as Claude Code's when it
 * is missing, not JSON, or not a marketplace.
 */
export async function readMarketplace(dir: string): Promise<MarketplaceManifest> {
  const file = join(dir, MARKETPLACE_FILE)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    throw new Error(`Marketplace file not found at ${file}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (err) {
    throw new Error(`Failed to parse marketplace file at ${file}: Invalid JSON in ${file}: ${describeError(err)}`)
  }
  const parsed = marketplaceSchema().safeParse(json)
  if (!parsed.success) throw new Error(`Failed to parse marketplace file at ${file}: Invalid schema: ${file} ${issueLines(parsed.error).join(', ')}`)
  return parsed.data
}
