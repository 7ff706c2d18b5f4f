export { JetStreamOutbox, type JetStreamOutboxDeps } from './outbox'
export type { DeliveryEndpoint } from './pair'
