// The check-in module's surface: what app.ts composes and other modules may call.
export { checkinCallables } from './checkin.functions';
export { checkinLiveQueries } from './checkin.live';
export { checkInsTopic } from './topics';
export { applyScans, scannedTopic } from './checkin.functions';
