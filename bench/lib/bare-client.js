// A client that does nothing between rounds: node:http with a keep-alive agent, in a process of
// its own, reading each streamed response to its end and sending the next request (of the size
// given) at once. Its gaps at the fake server are what a tool round costs with no client work at
// all: loopback, scheduling, and the server reading and parsing the request.
// Usage: node bare-client.js <base url> <requests> <body bytes>
import { Agent, request } from 'node:http'

const [base, countText, bytesText] = process.argv.slice(2)
const agent = new Agent({ keepAlive: true })
const shell = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: '' }] })
const body = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'x'.repeat(Math.max(0, Number(bytesText) - shell.length)) }] })
const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'x-api-key': 'bench', 'anthropic-version': '2023-06-01' }

for (let i = 0; i < Number(countText); i++) {
  await new Promise((resolve, reject) => {
    const req = request(`${base}/v1/messages`, { method: 'POST', agent, headers }, (res) => {
      res.resume()
      res.on('end', resolve)
    })
    req.on('error', reject)
    req.end(body)
  })
}
agent.destroy()
