export { startFakeAnthropic } from './testing/fake-anthropic.js'
export type { FakeAnthropic, FakeRequest } from './testing/fake-anthropic.js'
export { createScriptedModel } from './core/model/scripted.js'
export { loadScript } from './core/model/script.js'
