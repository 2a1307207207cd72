// Loads the CLI bundle with a V8 code cache: the functions compiled by an earlier run are
// deserialised instead of parsed and compiled again, which is most of a cold start's CPU time.
// Node 20 offers this neither for ES modules nor through require(), hence vm.Script. CommonJS, as
// is the launcher: an ES module entry would start Node's ESM loader (~7 ms) for nothing.
'use strict'
const { fstatSync, mkdirSync, openSync, closeSync, readdirSync, readSync, renameSync, rmSync, writeFileSync } = require('node:fs')
const { createRequire } = require('node:module')
const { homedir, tmpdir } = require('node:os')
const { basename, dirname, join } = require('node:path')
const { setFlagsFromString } = require('node:v8')
const { Script } = require('node:vm')

// V8 flags the launcher set before it loaded anything (setLaunchFlags), in order.
const launchFlags = []

/** A short, stable tag for a list of flags (FNV-1a), so caches made under other flags keep apart. */
function flagsTag(flags) {
  if (flags.length === 0) return 'plain'
  let h = 0x811c9dc5
  for (const c of flags.join(' ')) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0
  return h.toString(36)
}

/**
 * Where a cache may live, best first: beside the bundle (one cache for every user of an
 * install), else under $MODLOOP_HOME/cache, else the OS temp dir. The name carries the bundle's
 * identity — its inode, size and modification time — the flags the launcher set, and the V8
 * version: a rebuilt bundle or another Node never meets a stale cache, and runs launched with
 * other flags (a `-p` run and a terminal session) keep one cache each instead of rejecting each
 * other's. (A hash of the content, as before, read 2 MB through SHA-1 on every start: ~5 ms.)
 */
function cachePaths(file, stat) {
  const id = [stat.ino, stat.size, Math.round(stat.mtimeMs)].map((n) => n.toString(36)).join('.')
  const base = basename(file, '.cjs')
  const tag = flagsTag(launchFlags)
  const name = `${base}-${id}-${tag}-${process.versions.v8}.cache`
  const home = process.env.MODLOOP_HOME || join(homedir(), '.modloop')
  return { base, tag, paths: [join(dirname(file), name), join(home, 'cache', name), join(tmpdir(), 'modloop-cache', name)] }
}

/**
 * The first cache found, read into `spare` when it fits: fresh memory costs a page fault per 4 KiB
 * page on first touch, which on some virtual machines is ~3 ms a MiB, so the cache goes where the
 * source was read (the source is a string by then) instead of into 2 MB more.
 */
function readCache(paths, spare) {
  for (const path of paths) {
    let fd
    try {
      fd = openSync(path, 'r')
    } catch {
      continue // not here: try the next place
    }
    try {
      const size = fstatSync(fd).size
      return readAll(fd, size <= spare.length ? spare.subarray(0, size) : Buffer.allocUnsafe(size))
    } catch {
      continue // unreadable here: try the next place, as a missing one
    } finally {
      closeSync(fd)
    }
  }
  return undefined
}

/** Fills `into` from the start of the file; a file cut short meanwhile gives what it had. */
function readAll(fd, into) {
  let at = 0
  while (at < into.length) {
    const n = readSync(fd, into, at, into.length - at, at)
    if (n === 0) break
    at += n
  }
  return into.subarray(0, at)
}

// A temp name then a rename: a concurrent reader sees no file or a whole one. Caches of other
// builds (or Node versions) for the same flags in the same place are removed, so upgrades do not
// pile them up.
function writeCache({ base, tag, paths }, data) {
  for (const path of paths) {
    const temp = `${path}.${process.pid}.tmp`
    try {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(temp, data)
      renameSync(temp, path)
    } catch {
      rmSync(temp, { force: true })
      continue
    }
    for (const old of readdirSync(dirname(path))) {
      if (!old.startsWith(`${base}-`) || !old.endsWith('.cache') || old === basename(path)) continue
      // `<base>-<id>-<tag>-<v8>.cache`: the id and the tag hold no dash.
      if (old.slice(base.length + 1).split('-')[1] === tag) rmSync(join(dirname(path), old), { force: true })
    }
    return
  }
}

// Like require's own cache: a file runs once however many modules ask for it.
const loaded = new Map()

// Scripts that came without a usable cache, and whether they were loaded after setV8Flags.
const unsaved = []
// The flags that put V8 back as it started, once setV8Flags has changed it.
let startFlags
process.once('exit', () => {
  // Each cache is made under the flags its script will meet when it loads next time: those
  // loaded after the change under the changed flags, the others once V8 is put back.
  for (const entry of unsaved) if (entry.afterFlags) writeCache(entry.where, entry.script.createCachedData())
  for (const flag of startFlags ?? []) setFlagsFromString(flag)
  for (const entry of unsaved) if (!entry.afterFlags) writeCache(entry.where, entry.script.createCachedData())
})

/**
 * Runs `file` once and returns its exports. The file is a CommonJS module already wrapped in Node's
 * module function, ASCII only (see scripts/bundle.mjs), so V8 compiles the text as read. A
 * missing, corrupt or rejected cache only costs the compile it would have saved. A new one is
 * written at exit rather than after the top level ran: it then holds the functions the run used
 * too, which measured ~15% faster on the next cold run for the same memory.
 */
function requireCached(file) {
  const known = loaded.get(file)
  if (known) return known.exports
  // One open for the identity and the bytes: the file read is the file named.
  const fd = openSync(file, 'r')
  let room
  let size
  let where
  try {
    const stat = fstatSync(fd)
    where = cachePaths(file, stat)
    // Room for a cache a little larger than the source too (see readCache); untouched, it costs nothing.
    room = Buffer.allocUnsafeSlow(Math.ceil(stat.size * 1.25))
    size = readAll(fd, room.subarray(0, stat.size)).length
  } finally {
    closeSync(fd)
  }
  const source = room.latin1Slice(0, size)
  // No importModuleDynamically: the bundle holds no import() (scripts/bundle.mjs turns them into
  // require), and a script compiled from a cache would lose the callback anyway.
  const script = new Script(source, { filename: file, cachedData: readCache(where.paths, room) })
  // V8 sets cachedDataRejected only when it was given a cache; undefined means there was none.
  if (script.cachedDataRejected !== false) unsaved.push({ where, script, afterFlags: startFlags !== undefined })
  const module = { exports: {}, filename: file, id: file, loaded: false }
  loaded.set(file, module)
  script.runInThisContext().call(module.exports, module.exports, createRequire(file), module, file, dirname(file))
  module.loaded = true
  return module.exports
}

/**
 * Sets V8 flags in a running process without spoiling the next start's caches. V8 stamps a code
 * cache with a hash of the flags in force when it is made and rejects it when the reader's flags
 * hash otherwise: a cache made at exit under changed flags would be rejected by every cold start,
 * each then compiling everything and writing a new one (~60 ms more a run). So `defaults`, the
 * same flags at V8's defaults, are set back at exit before the caches of the scripts loaded
 * earlier are made. Made at exit rather than now, a cache also holds the functions the rest of
 * the run compiled: made at the first response it had half the size, and started ~60 ms slower.
 */
function setV8Flags(flags, defaults) {
  startFlags = [...(startFlags ?? []), ...defaults]
  for (const flag of flags) setFlagsFromString(flag)
}

/**
 * The V8 flags a run of the CLI starts with, given its arguments (bin/modloop.cjs, and
 * bench/lib/load-only.cjs, which loads the bundle as a `-p` run does). Here rather than in a file
 * of their own: the launcher loads this one anyway, and another file costs every start ~0.5 ms.
 */
function launchFlagsFor(argv) {
  return [
    // fetch (WebFetch) parses HTTP with a WebAssembly module whose optimising recompile, left
    // unfinished when a short run exits, adds ~25 MiB to peak memory; the baseline compiler parses
    // a stream just as well.
    '--liftoff-only',
    // A headless run starts without V8's optimising compilers: a one-turn run ends before their
    // code would pay, and their compiles took ~5 MiB of its peak memory for no time saved. The run
    // gets them back once the session is under way (cli/heap.ts, at the first answer).
    ...(isHeadless(argv) ? ['--max-opt=0'] : []),
    // And with the young generation kept at its first 1 MB (cli/heap.ts keeps it so for a long
    // session too): a start's survivors are promoted a little sooner, for ~830 fewer page faults
    // (-3.2 MiB) than letting it grow to 8 MB; its extra scavenges cost ~14M instructions, the
    // faults more (~11-20 us each on these machines): a one-turn run -15 to -19 ms wall, -10 ms CPU
    // (paired medians of 40).
    ...(isHeadless(argv) ? ['--semi-space-growth-factor=1'] : []),
  ]
}

/** Whether the CLI's arguments ask for a headless run (`-p`), which draws no terminal. */
function isHeadless(argv) {
  return argv.includes('-p') || argv.includes('--print')
}

/**
 * Sets V8 flags for the whole run, before anything is loaded through the cache (the launcher's
 * part): the caches made under them are named apart (see cachePaths). Node's own modules a session
 * needs are loaded first (preloadBuiltins); `headless`, a run that draws no terminal.
 */
function setLaunchFlags(flags, headless = false) {
  if (loaded.size > 0) throw new Error('setLaunchFlags: a script was already loaded through the code cache')
  if (flags.length > 0) preloadBuiltins(headless)
  for (const flag of flags) {
    setFlagsFromString(flag)
    launchFlags.push(flag)
  }
}

/**
 * Loads the Node modules every session uses while V8's flags are still Node's own. Node keeps a
 * code cache of its built-in modules, checked against a hash of V8's flags, which any flag set
 * changes: a built-in first loaded after the launch flags was parsed and compiled from source.
 * That was the HTTP client, child_process, fs/promises and the ~35 modules they bring (6% of a
 * one-turn run's instructions), and the terminal's readline and tty. https (with TLS and crypto)
 * only when the model is reached over https, as it is unless ANTHROPIC_BASE_URL names a plain
 * http server.
 */
function preloadBuiltins(headless) {
  for (const name of ['node:http', 'node:child_process', 'node:fs/promises', 'node:timers/promises', 'node:perf_hooks']) require(name)
  void require('node:util').parseArgs // a getter that loads the argument parser
  // The terminal's: its line editor for a session drawn there, tty for a standard stream that is
  // one. A headless run with its streams piped loads neither (they were ~0.6% of its instructions).
  if (!headless || [0, 1, 2].some(onCharacterDevice)) require('node:tty')
  if (!headless) {
    require('node:readline/promises')
    void require('node:readline').emitKeypressEvents
  }
  if (!/^http:/i.test(process.env.ANTHROPIC_BASE_URL ?? '')) require('node:https')
}

/** Whether a file descriptor is a terminal, or another character device (/dev/null), without loading tty to ask. */
function onCharacterDevice(fd) {
  try {
    return fstatSync(fd).isCharacterDevice()
  } catch {
    return false // closed
  }
}

/** The value the launcher gave a flag (`--max-opt=0`), if it set one. */
function launchFlag(name) {
  return launchFlags.findLast((f) => f === name || f.startsWith(`${name}=`))
}

module.exports = { requireCached, setV8Flags, setLaunchFlags, launchFlag, launchFlagsFor, isHeadless }
