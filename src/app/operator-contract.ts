import { Elysia } from 'elysia'
import { keysApi } from '../server/keys/routes'
import { auditApi } from './audit-routes'

/** The operator's routes (docs/operator.md) as data (route-data.ts), each from its definition: API keys and the audit log. */
export const operatorContract = new Elysia({ name: 'operator-contract' }).use(keysApi).use(auditApi)
