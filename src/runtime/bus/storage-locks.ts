import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type FolderLock, fileHolder, LOCK_PAUSE_MS, lockFile } from '../telegram/binlog-lock'
import type { Membership } from './membership'

/**
 * Shards that share `DATA_DIR/tdlib` must see each other's POSIX locks on it
 * (docs/shards.md#one-owner-per-account): TDLib's lock on a userbot's binlog is what keeps a shard
 * from opening a folder another still has open, and a storage that does not carry locks between
 * hosts (NFS mounted `nolock`, some FUSE file systems) would let both open it, and Telegram end the
 * account's authorization (`AUTH_KEY_DUPLICATED`).
 *
 * So each shard holds a lock on `DATA_DIR/tdlib/.shards/<SHARD_ID>` for its life (taken as TDLib
 * takes its own) and says so in its entry on the bus; a shard that starts looks for the lock of
 * every live shard that says it holds one, and refuses to start when it cannot see one.
 */
export class StorageLocksError extends Error {
	override name = 'StorageLocksError'
}

const lockPath = (dataDir: string, shardId: string) => join(dataDir, 'tdlib', '.shards', shardId)

/**
 * Takes this shard's lock. Another process of the same `SHARD_ID` may still hold it while it stops
 * (a restart): waited for up to `waitMs`, then refused as the membership refuses a second live one.
 */
export async function holdShardLock(dataDir: string, shardId: string, waitMs: number): Promise<FolderLock> {
	mkdirSync(join(dataDir, 'tdlib', '.shards'), { recursive: true, mode: 0o700 })
	try {
		return await lockFile(lockPath(dataDir, shardId), Math.max(1, Math.ceil(waitMs / LOCK_PAUSE_MS)))
	} catch {
		throw new StorageLocksError(`SHARD_ID ${shardId} is used by another running shard`)
	}
}

/**
 * Checks that this process sees the lock of every other live shard that holds one. A shard that
 * has just died lets go of its lock before its entry goes: one whose lock is not seen is asked
 * again once it has beaten since (or gone), and only one that still beats unseen stops the start.
 */
export async function checkPeerLocks(
	membership: Membership,
	dataDir: string,
	selfId: string,
	heartbeatMs: number,
): Promise<void> {
	for (const [id, beat] of membership.lockingShards()) {
		if (id === selfId || fileHolder(lockPath(dataDir, id)) !== null) continue
		const end = performance.now() + membership.ttlMs + heartbeatMs
		let since: number | undefined = beat
		while (since !== undefined && since <= beat && performance.now() < end) {
			await Bun.sleep(Math.min(100, heartbeatMs))
			since = membership.lockingShards().get(id)
		}
		if (since === undefined || fileHolder(lockPath(dataDir, id)) !== null) continue
		throw new StorageLocksError(
			`${join(dataDir, 'tdlib')} does not carry POSIX locks between this shard and shard ${id} (its lock in .shards/ is not seen here): every shard must mount one DATA_DIR/tdlib on storage that shares locks between hosts (NFS v4 does)`,
		)
	}
}
