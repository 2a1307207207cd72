import { nodeCrypto } from '../../../../core/random.js'

/**
 * The advisory-lock key of a session or a job: 64 bits of a hash of kind and id, as the signed
 * bigint Postgres takes (a string, so no precision is lost on the way). Two kinds never share a key.
 */
export function lockKey(kind: 'session' | 'job', id: string): string {
  const hex = nodeCrypto().createHash('sha256').update(`modloop:${kind}:${id}`).digest('hex').slice(0, 16)
  return BigInt.asIntN(64, BigInt(`0x${hex}`)).toString()
}
