import * as valibot from 'valibot'
import * as pluginApi from '../server/plugin/api'

/**
 * A plugin loaded by the single binary from a folder or a package (`PLUGINS=/opt/plugins/crm`)
 * imports `userbot-gateway/plugin` and usually valibot, which its folder does not hold: the binary
 * has no node_modules. Both resolve to the binary's own copies, as virtual modules of Bun's runtime
 * (a plugin never carries a second copy: its schemas and errors are the server's own classes). Any
 * other import resolves from the plugin's folder, as it would anywhere.
 */
export const HOST_MODULES = { 'userbot-gateway/plugin': pluginApi, valibot } as const

export function provideHostModules(): void {
	Bun.plugin({
		name: 'userbot-gateway-host-modules',
		setup(build) {
			for (const [name, exports] of Object.entries(HOST_MODULES)) {
				build.module(name, () => ({ exports: { ...exports }, loader: 'object' }))
			}
		},
	})
}
