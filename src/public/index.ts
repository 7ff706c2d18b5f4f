/**
 * `userbot-gateway`: the service as a library, for embedding it in an application of one's own.
 * `createApp(loadConfig(), { plugins: [...builtInPlugins, myPlugin] })`, then `app.app.listen(...)`.
 */

export { type App, builtInPlugins, type CreateAppOptions, createApp, StartupError } from '../app'
export { type StartOptions, type StartOutcome, startServer } from '../platform/bun/serve'
export { type Config, ConfigError, loadConfig } from '../server/config'
export { definePlugin, type PluginDefinition } from '../server/plugin/define'
