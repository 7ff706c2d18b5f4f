import type { Method } from './call'

/** Media and files (docs/bot-api.md#methods): none served yet. */
export const MEDIA_METHODS: Readonly<Record<string, Method>> = {}
