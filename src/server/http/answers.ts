/**
 * How the core's plain routes (its pages and documents, served by Elysia directly) describe their
 * answers in the OpenAPI document, in the `detail` they are served with (`policyHook(entry, detail)`).
 */
export const jsonAnswer = (description: string) => ({
	description,
	content: { 'application/json': { schema: { type: 'object' } } },
})

export const textAnswer = (type: string, description: string) => ({
	description,
	content: { [type]: { schema: { type: 'string' } } },
})
