/**
 * The WebSocket protocol as this project speaks it (docs/protocol.md): envelopes and their builders,
 * request ids, close codes and reasons, the gateway's error strings, limits. Browser-safe: the typed client bundles it.
 */
export * from './close'
export * from './envelope'
export * from './errors'
export * from './limits'
export * from './server-paths'
