import type { Elysia } from 'elysia'
import { AUTHENTICATE } from '../../common/wire/envelope'
import type { CommandGroup } from '../commands/define'
import { createCommandRegistry, type RegisteredCommand } from '../commands/registry'
import type { AppContext, CompanyEvent, UserbotStateReader } from '../context'
import { authenticateAction } from './authenticate'
import { createConnections } from './connections'
import { directRun } from './direct'
import { createDispatcher } from './dispatch'
import { createOpenSockets } from './open-sockets'
import { frameText } from './receive'
import { subscriptionActions } from './subscriptions'
import { gatewayRoute } from './upgrade'

export { MAX_FRAME_BYTES } from '../../common/wire/limits'

export interface Gateway {
	routes: Elysia
	/** Every command served, by wire name. */
	commands: ReadonlyMap<string, RegisteredCommand>
	publish(event: CompanyEvent): void
	/** Open sockets (of one user, if given), and what waits for them, here and in Bun's buffers. */
	stats(userId?: number): { sockets: number; waitingBytes: number }
	/**
	 * The server is stopping: no new socket is opened and no new command run; each socket closes
	 * with 1001 once its running commands are answered. Resolves when every socket has closed.
	 */
	goAway(): Promise<void>
	/** A command for a principal without a socket, through the same dispatcher (./direct.ts). */
	run: AppContext['runCommand']
}

/**
 * The WebSocket command channel, put together: the `/ws` route (upgrade.ts) opens sockets
 * (open-sockets.ts, socket.ts), indexed for pushes and revocations (connections.ts); each frame is
 * read (receive.ts) and answered once by the dispatcher (dispatch.ts), which runs a command
 * (command-path.ts) or the connection's own frames (authenticate.ts, subscriptions.ts).
 */
export function createGateway(
	ctx: AppContext,
	groups: readonly CommandGroup[],
	/** Whether an account is ready: the owner of the userbots' states (one answer, theirs). */
	states: UserbotStateReader,
): Gateway {
	const registry = createCommandRegistry(groups)
	const connections = createConnections(ctx)
	const sockets = createOpenSockets(ctx, connections)
	const dispatcher = createDispatcher(ctx, registry, {
		states,
		connectionActions: new Map([
			[AUTHENTICATE, authenticateAction(ctx, connections)],
			...subscriptionActions(ctx, sockets.sinkOf),
		]),
	})
	const routes = gatewayRoute(ctx, sockets, (socket, message) => {
		const text = frameText(socket, message)
		if (text !== null) dispatcher.handle(socket, text)
	})
	return {
		routes: routes as unknown as Elysia,
		commands: registry,
		publish: connections.publish,
		stats: sockets.stats,
		goAway: sockets.goAway,
		run: (principal, userbotId, action, input, signal) =>
			directRun(
				dispatcher.handle,
				(a, outcome, seconds) => ctx.metrics.command(a, outcome, seconds),
				principal,
				userbotId,
				action,
				input,
				signal,
			),
	}
}
