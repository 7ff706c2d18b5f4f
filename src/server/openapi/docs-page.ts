/**
 * `GET /api/docs`: the OpenAPI document as a page of our own, written by the server from the document
 * it serves. **Decision:** no viewer script, ours or a CDN's: the page is plain HTML (every operation
 * with its parameters, body and answers, the schemas folded in `<details>`), so it reads offline, with
 * scripts off and in a text browser, and the binary carries it as it carries the code. The machine-
 * readable document stays at `/api/openapi.json` for any viewer a reader prefers.
 */

interface Operation {
	summary?: string
	description?: string
	tags?: string[]
	parameters?: Array<{ name: string; in: string; required?: boolean; schema?: unknown }>
	requestBody?: { content?: Record<string, { schema?: unknown }> }
	responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }>
}

export interface OpenApiLike {
	info?: { title?: string; version?: string; description?: string }
	paths?: Record<string, Record<string, Operation>>
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const json = (value: unknown) => `<pre>${html(JSON.stringify(value, null, 2))}</pre>`

function operationHtml(method: string, path: string, op: Operation): string {
	const params = (op.parameters ?? []).map(
		(p) => `<li><code>${html(p.name)}</code> (${html(p.in)}${p.required ? ', required' : ''})</li>`,
	)
	const bodies = Object.entries(op.requestBody?.content ?? {}).map(
		([type, c]) => `<details><summary>Body: ${html(type)}</summary>${json(c.schema)}</details>`,
	)
	const answers = Object.entries(op.responses ?? {}).map(([status, r]) => {
		const content = Object.entries(r.content ?? {})
		const schemas = content.map(([type, c]) => `<p>${html(type)}</p>${json(c.schema)}`).join('')
		const text = `${html(status)}: ${html(r.description ?? '')}`
		return schemas ? `<li><details><summary>${text}</summary>${schemas}</details></li>` : `<li>${text}</li>`
	})
	return `<section class="operation" id="${html(`${method}-${path}`)}">
<h3><span class="method">${method.toUpperCase()}</span> <code>${html(path)}</code></h3>
${op.summary ? `<p>${html(op.summary)}</p>` : ''}${op.description ? `<p>${html(op.description)}</p>` : ''}
${params.length ? `<p>Parameters:</p><ul>${params.join('')}</ul>` : ''}${bodies.join('')}
${answers.length ? `<p>Answers:</p><ul>${answers.join('')}</ul>` : ''}
</section>`
}

export function renderDocsPage(doc: OpenApiLike): string {
	const byTag = new Map<string, string[]>()
	for (const [path, ops] of Object.entries(doc.paths ?? {})) {
		for (const method of METHODS) {
			const op = ops[method]
			if (!op) continue
			const tag = op.tags?.[0] ?? 'other'
			if (!byTag.has(tag)) byTag.set(tag, [])
			byTag.get(tag)!.push(operationHtml(method, path, op))
		}
	}
	const title = html(`${doc.info?.title ?? 'API'} ${doc.info?.version ?? ''}`.trim())
	const toc = [...byTag.keys()].map((t) => `<a href="#tag-${html(t)}">${html(t)}</a>`).join(' · ')
	const sections = [...byTag].map(
		([tag, ops]) => `<h2 id="tag-${html(tag)}">${html(tag)}</h2>\n${ops.join('\n')}`,
	)
	return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
.operation{border-top:1px solid #ddd;padding:.5rem 0}.method{font-weight:700;color:#0b5cad}
pre{background:#f5f5f7;padding:.5rem;overflow:auto;font-size:13px}summary{cursor:pointer}
</style></head>
<body>
<h1>${title}</h1>
${doc.info?.description ? `<p>${html(doc.info.description)}</p>` : ''}
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a>; the WebSocket commands: <a href="/api/commands/">/api/commands/</a> and <a href="/api/asyncapi.json">/api/asyncapi.json</a>.</p>
<nav>${toc}</nav>
${sections.join('\n')}
</body>
</html>
`
}
