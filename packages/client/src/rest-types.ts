/**
 * The shapes of a REST call, as Eden's treaty has them: `{ data, error, status }`, `data` set for a
 * 2xx, `error` (`{ status, value }`, the documented body of that status) otherwise.
 */

export interface RestOptions<Q> {
	query?: Q
	headers?: Record<string, string>
	signal?: AbortSignal
}

export type RestResult<D, E extends { status: number; value: unknown }> =
	| { data: D; error: null; status: number; headers: Headers; response: Response }
	| { data: null; error: E; status: number; headers: Headers; response: Response }

export type RestGet<Q, D, E extends { status: number; value: unknown }> = (
	options?: RestOptions<Q>,
) => Promise<RestResult<D, E>>

export type RestSend<B, Q, D, E extends { status: number; value: unknown }> = (
	body: B,
	options?: RestOptions<Q>,
) => Promise<RestResult<D, E>>

export type RestSendOptional<B, Q, D, E extends { status: number; value: unknown }> = (
	body?: B,
	options?: RestOptions<Q>,
) => Promise<RestResult<D, E>>
