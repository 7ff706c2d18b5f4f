import type { Metric, Registry } from 'prom-client'

/**
 * The HTTP requests' counter and latency histogram, tallied in plain memory per request and handed
 * to prom-client's registry when it renders (prom-client hashes a request's labels on each `inc`
 * and `observe`: a fair part of a cheap request's time). The series are the same as prom-client's
 * own Counter and Histogram would give: `ubg_http_requests_total{method,route,status}` and
 * `ubg_http_request_duration_seconds{method,route}` with cumulative `le` buckets, `_sum`, `_count`.
 */
/** One sample as prom-client's registry renders it. */
interface Sample {
	labels: Record<string, string | number>
	value: number
	metricName?: string
}

/** What the registry asks a metric for when it renders. */
interface Rendered {
	name: string
	help: string
	type: 'counter' | 'histogram'
	aggregator: 'sum'
	values: Sample[]
}

interface Latency {
	labels: { method: string; route: string }
	/** Observations per bucket (not cumulative); the last is past every bound (+Inf). */
	buckets: number[]
	sum: number
	count: number
}

export interface RouteTally {
	record(method: string, route: string, status: number, seconds: number): void
}

export function routeTally(registry: Registry, bounds: readonly number[]): RouteTally {
	const counts = new Map<
		string,
		{ labels: { method: string; route: string; status: string }; value: number }
	>()
	const latencies = new Map<string, Latency>()
	const counter = {
		name: 'ubg_http_requests_total',
		help: 'HTTP requests answered, by method, route pattern and status.',
		type: 'counter',
		aggregator: 'sum',
		get: async (): Promise<Rendered> => ({
			name: counter.name,
			help: counter.help,
			type: 'counter',
			aggregator: 'sum',
			values: [...counts.values()].map((c) => ({ labels: c.labels, value: c.value })),
		}),
		reset: () => counts.clear(),
	}
	const histogram = {
		name: 'ubg_http_request_duration_seconds',
		help: 'Time to answer an HTTP request, by method and route pattern.',
		type: 'histogram',
		aggregator: 'sum',
		get: async (): Promise<Rendered> => ({
			name: histogram.name,
			help: histogram.help,
			type: 'histogram',
			aggregator: 'sum',
			values: [...latencies.values()].flatMap((l) => {
				let below = 0
				const rows: Sample[] = bounds.map((le, i) => {
					below += l.buckets[i] ?? 0
					return { labels: { le, ...l.labels }, value: below, metricName: `${histogram.name}_bucket` }
				})
				rows.push({
					labels: { le: '+Inf', ...l.labels },
					value: l.count,
					metricName: `${histogram.name}_bucket`,
				})
				rows.push({ labels: l.labels, value: l.sum, metricName: `${histogram.name}_sum` })
				rows.push({ labels: l.labels, value: l.count, metricName: `${histogram.name}_count` })
				return rows
			}),
		}),
		reset: () => latencies.clear(),
	}
	registry.registerMetric(counter as unknown as Metric)
	registry.registerMetric(histogram as unknown as Metric)
	return {
		record(method, route, status, seconds) {
			const key = `${method} ${route}`
			const byStatus = `${key} ${status}`
			const c = counts.get(byStatus)
			if (c) c.value++
			else counts.set(byStatus, { labels: { method, route, status: String(status) }, value: 1 })
			let l = latencies.get(key)
			if (!l) {
				l = { labels: { method, route }, buckets: new Array(bounds.length + 1).fill(0), sum: 0, count: 0 }
				latencies.set(key, l)
			}
			let i = 0
			while (i < bounds.length && seconds > (bounds[i] as number)) i++
			l.buckets[i] = (l.buckets[i] ?? 0) + 1
			l.sum += seconds
			l.count++
		},
	}
}
