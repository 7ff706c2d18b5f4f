declare module 'parse-prometheus-text-format' {
	/** A metric family as prom2json writes it (histogram buckets in `buckets`). */
	export interface MetricFamily {
		name: string
		help: string
		type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
		metrics: Array<{
			value?: string
			labels?: Record<string, string>
			buckets?: Record<string, string>
			count?: string
			sum?: string
		}>
	}
	export default function parsePrometheusTextFormat(text: string): MetricFamily[]
}
