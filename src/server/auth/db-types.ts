import type { Database } from '../../../db/client'

/** The database or a transaction of it: what a write that may join a larger one accepts. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0]
