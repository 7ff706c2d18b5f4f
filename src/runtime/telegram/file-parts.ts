/**
 * `readFilePart`'s parts: bounded, so that a part and its envelope stay far below a bus message's
 * limit. The files route reads a file of another host in parts of at most this many bytes; a shard
 * refuses a larger one (src/runtime/bus/allowed.ts).
 */
export const READ_PART_BYTES = 256 * 1024
