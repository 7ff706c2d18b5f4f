/**
 * Run by capacity.test.ts under `prlimit --nofile=64:4096`: lowers the soft descriptor limit, raises
 * it again, lowers it once more, and prints what the kernel says (/proc/self/limits) after each step
 * beside what the module returned. (Bun itself raises the soft limit as it starts; lowering it first
 * is what shows the raise is this module's.)
 */
import { readFileSync } from 'node:fs'
import { setDescriptorLimit } from '../../src/runtime/supervisor/rlimit'

const kernel = () => Number(/Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1])
const down = await setDescriptorLimit(64)
const afterDown = kernel()
const raised = await setDescriptorLimit()
const afterRaise = kernel()
const lowered = await setDescriptorLimit(100)
console.log(JSON.stringify({ down, afterDown, raised, afterRaise, lowered, afterLower: kernel() }))
