// The analytics module's surface: what app.ts composes and other modules may call.
export { aggregateAnalytics, aggregateAnalyticsJob } from './aggregate';
export { analyticsLiveQueries } from './analytics.live';
export { beaconFastPath, createBeaconIntake, createBeaconWriter, registerBeaconRoute, type BeaconWriter } from './beacons';
export { analyticsOrgTopic, analyticsTopic } from './topics';
