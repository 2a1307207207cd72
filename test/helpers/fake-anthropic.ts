export * from '../../testing/fake-anthropic.js'
