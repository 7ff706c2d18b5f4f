/** Where a userbot belongs, as the gateway and the REST routes need to know it on every request. */
export interface UserbotRecord {
	id: number
	companyId: number
}

/**
 * Company-scoped lookup of userbots, cached for the command hot path. Whoever deletes a userbot or
 * moves it must call `invalidate`, so a deleted userbot answers `userbot not found` at once.
 */
export interface UserbotDirectory {
	/** The live (not deleted) userbot, or null. */
	lookup(userbotId: number): Promise<UserbotRecord | null>
	invalidate(userbotId: number): void
	/**
	 * The userbot is being deleted: from now on it is not found, before its row says so (a delete
	 * frees its folders first and writes the row last). Ids are never reused.
	 */
	markDeleted(userbotId: number): void
	/** Forgets every cached answer (the bus: invalidations from other gateways may have been missed). */
	invalidateAll?(): void
}
