import type { AppContext } from 'userbot-gateway/plugin'
import type { UserbotClients } from './clients'
import type { UserbotStates } from './states'
import type { StatusTracker } from './status-tracker'

/** What the lifecycle's operations share: built once per app by `UserbotService`. */
export interface LifecycleParts {
	ctx: AppContext
	states: UserbotStates
	clients: UserbotClients
	statuses: StatusTracker
	/** How long a log-in step's request (and each part of a delete's stop) may take. */
	stepDeadline: number
	/** The userbots plugin's settings: quotas and the files route's limits. */
	limits: UserbotLimits
}

/** What a company and a userbot may take: the userbots plugin's settings, read when it loads. */
export interface UserbotLimits {
	uploadQuotaBytes: number
	companyUploadQuotaBytes: number
	fileMaxBytes: number
	fileDownloadWaitMs: number
	fileCacheBytes: number
	companyUserbotLimit: number
	/** Hosts, addresses and CIDRs a proxy may name although internal (PROXY_ALLOWED_HOSTS). */
	proxyAllowedHosts: readonly string[]
}
