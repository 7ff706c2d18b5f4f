import { Elysia } from 'elysia'
import type { ApiKeys } from '../server/auth/api-keys'
import type { RegisteredCommand } from '../server/commands/registry'
import type { AppContext } from '../server/context'
import { keyRoutes } from '../server/keys/routes'
import { auditRoutes } from './audit-routes'

/** The operator's REST routes (docs/operator.md): API keys (the auth core's `keys`) and the audit log. */
export function operatorRoutes(
	ctx: AppContext,
	commands: ReadonlyMap<string, RegisteredCommand>,
	keys: ApiKeys,
): Elysia {
	return new Elysia({ name: 'operator-routes' }).use(keyRoutes(ctx, commands, keys)).use(auditRoutes(ctx))
}
