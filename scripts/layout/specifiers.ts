import ts from 'typescript'

/**
 * The module specifiers of a source file, found by TypeScript's parser rather than by a pattern, so
 * an import written inside a string (a test's fixture, a generated file's template) or a comment is
 * not taken for one of the file's own: `import`/`export ... from`, `import()`, `import('x').T` in a
 * type, `require()`, `require.resolve()`, `mock.module()`, `import.meta.resolve()`, and
 * `new URL('...', import.meta.url)`.
 */

export interface SpecifierAt {
	/** Offset of the first character inside the quotes. */
	start: number
	end: number
	text: string
	/** `new URL(...)`: relative without `./` is allowed. */
	url: boolean
}

const CALLEES = new Set(['require', 'require.resolve', 'mock.module', 'import.meta.resolve'])

const isImportMetaUrl = (node: ts.Node | undefined) => node?.getText() === 'import.meta.url'

function scriptKind(path: string): ts.ScriptKind {
	if (path.endsWith('.tsx')) return ts.ScriptKind.TSX
	if (/\.(m|c)?js$/.test(path)) return ts.ScriptKind.JS
	return ts.ScriptKind.TS
}

export function specifiersIn(path: string, text: string): SpecifierAt[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path))
	const found: SpecifierAt[] = []
	const take = (node: ts.Node | undefined, url = false) => {
		if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) {
			const start = node.getStart(source) + 1
			found.push({ start, end: node.end - 1, text: node.text, url })
		}
	}
	const visit = (node: ts.Node): void => {
		if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) take(node.moduleSpecifier)
		else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
			take(node.moduleReference.expression)
		} else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) take(node.argument.literal)
		else if (ts.isCallExpression(node)) {
			const callee = node.expression
			if (callee.kind === ts.SyntaxKind.ImportKeyword || CALLEES.has(callee.getText(source))) {
				take(node.arguments[0])
			}
		} else if (ts.isNewExpression(node) && node.expression.getText(source) === 'URL') {
			if (isImportMetaUrl(node.arguments?.[1])) take(node.arguments?.[0], true)
		}
		ts.forEachChild(node, visit)
	}
	visit(source)
	return found.sort((a, b) => a.start - b.start)
}
