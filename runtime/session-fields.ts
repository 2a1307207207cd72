import type { ModReloader } from './reload.js'
import type { SessionTasks } from './tasks.js'
import type { ProvenanceLog } from './trace-log.js'

// What the runtime keeps on a session beside core's own fields (core/loop/session.ts): added by
// declaration merging, set when the session opens (open.ts), so core never names them.
declare module '../core/loop/session.js' {
  interface Session {
    /** The running tasks (subagents, background shells) as the runtime announces and controls them; the root's. */
    tasks: SessionTasks
    /** What mods changed or decided in this session (`modloop why`, `Query.why`); subagents share the root's. */
    provenance: ProvenanceLog | undefined
    /** Stops recording provenance into `provenance` (the bus sink's disposer). */
    stopProvenance: (() => void) | undefined
    /** Hot reload of file mods: `/reload`, and between turns with `watchMods`. */
    reloader: ModReloader | undefined
  }
}
