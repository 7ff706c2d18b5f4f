import { Elysia } from 'elysia'
import { auditRoutes } from './audit/routes'
import type { RegisteredCommand } from './commands/registry'
import type { AppContext } from './context'
import { keyRoutes } from './keys/routes'

/** The operator's REST routes (docs/operator.md): API keys and the audit log. */
export function operatorRoutes(ctx: AppContext, commands: ReadonlyMap<string, RegisteredCommand>): Elysia {
	return new Elysia({ name: 'operator-routes' }).use(keyRoutes(ctx, commands)).use(auditRoutes(ctx))
}
