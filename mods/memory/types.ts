/** Where a memory file comes from, as a settings-hooks bridge reports it (`memory_type`). */
export type MemoryType = 'Managed' | 'User' | 'Project' | 'Local'

/** Why a memory file was loaded (`load_reason` of the settings `InstructionsLoaded` event). */
export type LoadReason = 'session_start' | 'nested_traversal' | 'path_glob_match' | 'include'

/**
 * One load of a memory file, as the `memory` capability's `loaded()` lists it. The
 * field names are those of the settings `InstructionsLoaded` hook input, so a bridge passes them on.
 */
export interface LoadedInstruction {
  file_path: string
  memory_type: MemoryType
  load_reason: LoadReason
  /** The `paths:` globs of a rule loaded because a touched file matched them. */
  globs?: string[]
  /** The file a tool (or an @-mention) touched, for lazy loads. */
  trigger_file_path?: string
  /** The file whose `@path` import loaded this one. */
  parent_file_path?: string
}

/** A memory file as the model reads it. */
export interface MemoryEntry extends LoadedInstruction {
  /** What the file is, shown beside its path, e.g. "project instructions, checked into the codebase". */
  scope: string
  content: string
  /** Problems the model should know about (an import that could not be read). */
  notes: string[]
}

/** A memory file that may exist, before it is read. */
export interface Candidate {
  path: string
  memory_type: MemoryType
  scope: string
  /** Rules carry YAML frontmatter that means something (`paths:`), so a malformed one is reported; other files' is just dropped. */
  isRule?: boolean
  /**
   * The memory files this one stands in for (AGENTS.md for its directory's CLAUDE.md files): it is
   * read only when none of them gave any text, so a project keeping both is not read twice.
   */
  fallbackFor?: string[]
}

/** A `.claude/rules` file with `paths:` frontmatter: it loads only when a touched file matches. */
export interface ScopedRule extends Candidate {
  globs: string[]
  /** The directory the globs are relative to (the project the rule belongs to). */
  base: string
  matches: (relativePath: string) => boolean
}
