/** `import css from './x.css' with { type: 'text' }`: Bun hands the file's text. */
declare module '*.css' {
	const text: string
	export default text
}
