import { definePluginSettings, type SettingsValues, setting, settingTypes } from 'userbot-gateway/plugin'
import * as v from 'valibot'

const { int, bool, allowedHosts } = settingTypes

/**
 * The userbot lifecycle's settings (docs/configuration.md), read from the environment when
 * the plugin loads; `userbots({ ... })` given in code overrides them. UPLOAD_MAX_BYTES stays the
 * core's: it bounds every request body.
 */
export const USERBOT_SETTINGS = definePluginSettings({
	/** What all the uploads of one userbot may take together. */
	uploadQuotaBytes: setting('UPLOAD_QUOTA_BYTES', v.optional(int(1, 2 ** 50), String(1024 ** 3))),
	/** What all the uploads of one company's userbots may take together. */
	companyUploadQuotaBytes: setting(
		'COMPANY_UPLOAD_QUOTA_BYTES',
		v.optional(int(1, 2 ** 50), String(10 * 1024 ** 3)),
	),
	/** The biggest file the files route serves (413 past it; docs/read-side.md#files-out). */
	fileMaxBytes: setting('FILE_MAX_BYTES', v.optional(int(1, 4 * 1024 ** 3), String(2 * 1024 ** 3))),
	/** How long that route waits for TDLib's download before answering 202 with the progress. */
	fileDownloadWaitMs: setting('FILE_DOWNLOAD_WAIT_MS', v.optional(int(1, 600_000), '20000')),
	/** What the files one userbot's route downloaded may take on disk; past it the least recently served go. */
	fileCacheBytes: setting('FILE_CACHE_BYTES', v.optional(int(1, 2 ** 50), String(2 * 1024 ** 3))),
	/** Live (not deleted) userbots one company may have. */
	companyUserbotLimit: setting('COMPANY_USERBOT_LIMIT', v.optional(int(1, 1_000_000), '100')),
	/**
	 * Host names (lower case), addresses and CIDRs a userbot's proxy may name although they are
	 * internal (loopback, private, link-local...): docs/operator.md#userbot-proxies.
	 */
	proxyAllowedHosts: setting('PROXY_ALLOWED_HOSTS', v.optional(allowedHosts, '')),
	/** `POST /api/emulator/{revoke,ban,limit,freeze,hang}/`: the emulator backend only; never on by default. */
	emulatorControl: setting('EMULATOR_CONTROL', v.optional(bool, 'false')),
})

export type UserbotSettings = SettingsValues<typeof USERBOT_SETTINGS>
