import { defineConfig } from 'drizzle-kit'

// The core's tables and those the built-in plugins declare themselves (plugins/*/tables.ts): one
// database, one set of migrations, applied once at start by the core (db/client.ts).
export default defineConfig({
	dialect: 'sqlite',
	schema: ['./db/schema.ts', './plugins/*/tables.ts'],
	out: './db/migrations',
})
