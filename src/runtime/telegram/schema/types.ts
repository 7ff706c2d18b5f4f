/**
 * TDLib's input schema in TL notation: `int32`, `int53`, `double`, `int64`, `string`, `bytes`,
 * `Bool`, `vector<T>`, a class (`MessageSender`) or one constructor (`formattedText`). `number` is a
 * number field real TDLib was not asked about (it is read as an integer).
 */
export type TlType = string

export interface TdConstructor {
	fields: Record<string, TlType>
}

export interface TdFunction {
	fields: Record<string, TlType>
	/** The result's class or constructor, as `$FunctionResultByName` names it. */
	returns: string
	/** "Can be called synchronously": TDLib runs it at once, in any state, bypassing the queue. */
	synchronous?: true
}

export interface TdSchema {
	version: string
	commit: string
	/** Each class and its input constructors. */
	classes: Record<string, string[]>
	/** Every constructor a request may carry. */
	constructors: Record<string, TdConstructor>
	functions: Record<string, TdFunction>
	/** Every kind of update TDLib sends (the constructors of class Update), for subscriptions. */
	updates: string[]
}

/** How TDLib's JSON parser begins its refusals (code 400). */
export const PARSE_FAILED = 'Failed to parse JSON object as TDLib request: '
