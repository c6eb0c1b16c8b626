// The waitlist module's surface: what app.ts composes and other modules may call.
export { sendWaitlistConfirmationJob } from './guest-entries';
export { closeAtStartJob, closeList, offerFreedPlaces, offerFreedPlacesJobDefinition } from './offer-places';
export { waitlistEntry, waitlistSettings } from './schema';
export { waitlistTopic } from './topics';
export { waitlistCallables } from './waitlist.functions';
export { waitlistLiveQueries } from './waitlist.live';
export { waitlistEntryResource } from './waitlist-resource';
