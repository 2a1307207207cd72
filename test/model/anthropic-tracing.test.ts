import { trace, type Span, type SpanContext, type Tracer, type TracerProvider } from '@opentelemetry/api'
import { afterEach, describe, expect, it } from 'vitest'
import { collect, fakeModel } from './helpers.js'

/** A tracer provider that records the spans the SDK starts and ends. */
function recordingProvider(): { provider: TracerProvider; spans: { name: string; attributes: Record<string, unknown>; ended: boolean }[] } {
  const spans: { name: string; attributes: Record<string, unknown>; ended: boolean }[] = []
  const context: SpanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }
  const tracer = {
    startSpan(name: string, options?: { attributes?: Record<string, unknown> }): Span {
      const record = { name, attributes: { ...options?.attributes }, ended: false }
      spans.push(record)
      const span: Span = {
        spanContext: () => context,
        setAttribute: (k, v) => { record.attributes[k] = v; return span },
        setAttributes: (a) => { Object.assign(record.attributes, a); return span },
        addEvent: () => span,
        addLink: () => span,
        addLinks: () => span,
        setStatus: () => span,
        updateName: () => span,
        end: () => { record.ended = true },
        isRecording: () => true,
        recordException: () => {},
      }
      return span
    },
  } as unknown as Tracer
  return { provider: { getTracer: () => tracer }, spans }
}

afterEach(() => {
  trace.disable()
})

describe('the Anthropic adapter and OpenTelemetry', () => {
  it('keeps the SDK spans of an application that registered a tracer provider', async () => {
    const { provider, spans } = recordingProvider()
    expect(trace.setGlobalTracerProvider(provider)).toBe(true)
    const { model, server } = await fakeModel([{ reply: 'traced' }])
    await collect(model)
    expect(server.requests).toHaveLength(1)
    expect(spans).toHaveLength(1)
    expect(spans[0]).toMatchObject({ name: 'anthropic.messages.create', ended: true, attributes: { 'gen_ai.request.model': 'claude-sonnet-4-5' } })
  })

  it('streams the same without one', async () => {
    const { model, server } = await fakeModel([{ reply: 'untraced' }])
    const events = await collect(model)
    expect(events.at(-1)?.type).toBe('message_stop')
    expect(server.requests[0]!.headers.traceparent).toBeUndefined()
  })
})
