import type { ContentBlockParam, MessageParam } from '@anthropic-ai/sdk/resources/messages'
import type { CacheControl, ModelRequest } from '../../core/model/types.js'

/**
 * A `$.model.complete` request's own breakpoints (its caller's `cache: true` blocks, sent as
 * 5-minute marks) under this mod's settings: dropped where caching is off (`off`), made 1-hour
 * marks where the TTL says so. The API's limit of four was checked where they were given.
 */
export function settleGivenMarks(request: ModelRequest, ttl: '5m' | '1h', off: boolean): ModelRequest {
  if (!off && ttl === '5m') return request
  const mark: CacheControl | undefined = off ? undefined : { type: 'ephemeral', ttl: '1h' }
  const restamp = <B>(b: B): B => {
    if (!(b as { cache_control?: CacheControl | null }).cache_control) return b
    const { cache_control: _old, ...rest } = b as { cache_control?: CacheControl | null }
    return (mark ? { ...rest, cache_control: mark } : rest) as B
  }
  return {
    ...request,
    ...(Array.isArray(request.system) ? { system: request.system.map(restamp) } : {}),
    messages: request.messages.map((m) => (Array.isArray(m.content) ? { ...m, content: (m.content as ContentBlockParam[]).map(restamp) } as MessageParam : m)),
  }
}
