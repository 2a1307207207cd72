import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { outputShape } from '../../mods/_shared/tool-output.js'
import { bashOutputShape } from '../../mods/bash/output-shape.js'

describe('a tool output shape', () => {
  it('builds its schema at the first value it checks, once, and still refuses what does not fit', () => {
    let builds = 0
    const shape = outputShape(() => {
      builds++
      return z.looseObject({ filenames: z.array(z.string()) })
    }, (r) => r.filenames.join('\n'))
    expect(builds).toBe(0)
    expect(shape.parse({ filenames: ['a', 'b'], more: 1 })).toEqual({ filenames: ['a', 'b'], more: 1 })
    expect(shape.parse({ filenames: 'a' })).toBeUndefined()
    expect(builds).toBe(1)
    expect(shape.text({ filenames: ['a', 'b'] })).toBe('a\nb')
  })

  it('of Bash takes a result with both streams only', () => {
    expect(bashOutputShape.parse({ stdout: 'out' })).toBeUndefined()
    expect(bashOutputShape.parse({ stdout: 'out', stderr: '', exitCode: 2 })).toEqual({ stdout: 'out', stderr: '', exitCode: 2 })
    expect(bashOutputShape.text({ stdout: 'out', stderr: '', exitCode: 2 })).toBe('Exit code 2\nout')
  })
})
