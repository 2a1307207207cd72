import { BaseAnthropic } from '@anthropic-ai/sdk/client'
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages'

export { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error'

/**
 * The SDK's client with the one resource modloop calls, `messages`. The package's `Anthropic`
 * builds every resource it has (beta, models, files, skills, organization, …) and so brings all of
 * them into the CLI bundle: a quarter of its 2.2 MB, read, deserialised and run by every cold
 * start (~15 ms and 4 MiB of a `-p` run). The base client and the resource are the SDK's own;
 * requests, retries, errors and streaming are the same.
 */
export class MessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this)
}
