/** The directory's contract lives with the app context, which every part sees. */
export type { UserbotDirectory, UserbotRecord } from '../context'
