import { BlockList, isIP } from 'node:net'

type Env = Record<string, string | undefined>

/**
 * The proxy a request to `url` goes through, as Claude Code picks it: one proxy for every scheme,
 * `https_proxy`, then `HTTPS_PROXY`, `http_proxy`, `HTTP_PROXY` (so HTTPS_PROXY serves an http
 * base URL too), unless NO_PROXY (or `no_proxy`) names the host; undefined for none.
 */
export function proxyFor(url: URL, env: Env): string | undefined {
  const proxy = env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY
  if (!proxy || bypassed(url, env.no_proxy || env.NO_PROXY || '')) return undefined
  // A proxy given as `host:port` is an http one, as curl takes it.
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy) ? proxy : `http://${proxy}`
}

/**
 * NO_PROXY's entries, comma- or space-separated: `*` (every host), a domain (`corp.example`,
 * `.corp.example` and `*.corp.example` all cover the domain and every host under it), an IP, a
 * CIDR block (`10.0.0.0/8`), any of them with `:port` to bypass that port only. Case does not count.
 */
function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  const port = url.port || (url.protocol === 'https:' ? '443' : '80')
  for (const raw of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (!raw) continue
    if (raw === '*') return true
    const [entry, entryPort] = splitPort(raw)
    if (entryPort !== undefined && entryPort !== port) continue
    if (entry.includes('/')) {
      if (inBlock(host, entry)) return true
      continue
    }
    const domain = entry.replace(/^\*?\.?/, '')
    if (domain && (host === domain || host.endsWith(`.${domain}`))) return true
  }
  return false
}

/** `host:port`, `[v6]:port`, or a bare host (a bare IPv6 address has colons but no port). */
function splitPort(entry: string): [string, string | undefined] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
  if (bracketed) return [bracketed[1]!, bracketed[2]]
  const plain = /^([^:]+):(\d+)$/.exec(entry)
  return plain ? [plain[1]!, plain[2]] : [entry, undefined]
}

function inBlock(host: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/')
  const family = isIP(network ?? '')
  if (!family || family !== isIP(host) || !/^\d+$/.test(bits ?? '')) return false
  const type = family === 4 ? 'ipv4' : 'ipv6'
  const block = new BlockList()
  try {
    block.addSubnet(network!, Number(bits), type)
  } catch {
    return false
  }
  return block.check(host, type)
}
