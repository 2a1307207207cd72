// modloop's model client alone (runtime/model/anthropic.js: the real SDK over node:http, as a
// session uses it), in a process of its own, streaming each response to its end and sending the
// next request (of the size given) at once. Its gaps at the fake server are what a tool round
// costs with nothing of the loop in it: the floor the SDK sets under a round. Its first requests
// compile what the CLI's code cache would have held: tool-rounds.js leaves their gaps out.
// Usage: node model-client.js <base url> <requests> <body bytes>
import { createAnthropicModel } from '../../dist/runtime/model/anthropic.js'

const [base, countText, bytesText] = process.argv.slice(2)
const model = createAnthropicModel({ baseURL: base, apiKey: 'bench' })
const shell = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: '' }] }
const request = { ...shell, messages: [{ role: 'user', content: 'x'.repeat(Math.max(0, Number(bytesText) - JSON.stringify(shell).length)) }] }

for (let i = 0; i < Number(countText); i++) {
  // A failed request throws (ModelApiError) and the bench sees the exit code.
  for await (const _event of model.stream(request));
}
