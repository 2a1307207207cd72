import type { Agent } from 'node:http'
import { HttpProxyAgent } from 'http-proxy-agent'
import { HttpsProxyAgent } from 'https-proxy-agent'

const agents = new Map<string, Agent>()

/**
 * A keep-alive agent that reaches its hosts through `proxy`: an https URL through a CONNECT
 * tunnel with TLS inside it, an http URL as an absolute-URI request. Credentials in the proxy URL
 * go as `Proxy-Authorization: Basic`. Loaded only when a proxy variable is set.
 */
export function proxyAgent(proxy: string, secure: boolean): Agent {
  const key = `${secure ? 'https' : 'http'} ${proxy}`
  let agent = agents.get(key)
  if (!agent) {
    const made = secure ? new HttpsProxyAgent(proxy, { keepAlive: true }) : new HttpProxyAgent(proxy, { keepAlive: true })
    // node:http checks the URL's scheme against the agent's; agent-base would guess it from the call stack.
    made.protocol = secure ? 'https:' : 'http:'
    agents.set(key, agent = made)
  }
  return agent
}
