import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A fresh temp directory, by its real path (macOS links /tmp elsewhere). */
export async function tempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), `modloop-${prefix}-`)))
}

/** Writes files (path → content) under root; a path ending in / is an empty directory. */
export async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith('/')) {
      await mkdir(join(root, path), { recursive: true })
      continue
    }
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
}

/** The text blocks of a request's message, by index. */
export function texts(body: any, index: number): string[] {
  const content = body.messages[index].content
  return typeof content === 'string' ? [content] : content.filter((b: any) => b.type === 'text').map((b: any) => b.text)
}

export { withOptions } from '../helpers/with-options.js'
