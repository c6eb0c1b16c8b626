// The events module's surface: what other modules may call. Everything else in this folder is its own.
export { canSeeEvent, findEvent, requireEventRole, type EventRecord } from './event-access';
export { registerCalendarRoute } from './calendar.routes';
export { titlesAndVenues } from './content-sql';
export { embedOf } from './embed-sites';
export { eventCoverSlot } from './event-cover';
export { eventPageHead, withHead } from './event-page-head';
export { eventEndCallables, type EndEventOrders } from './event-end';
export { eventsCallables } from './events.functions';
export { eventsLiveQueries } from './events.live';
export {
  clearWaiting,
  countResale,
  countWaiting,
  offerFreedPlacesJob,
  releasePlaces,
  sellHeldPlaces,
  roomInStatement,
  SoldOut,
  takePlaces,
  takeRoomInStatement,
  tryTakePlaces,
  wakeWaitlist,
  type EventStatus,
  type PlaceKind,
  type PlaceLine,
} from './places';
export { eventOrdersTopic, eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';
export { recentSaleInfo, type SaleInfo } from './sale-info';
export { emitEventWebhook, eventResource } from './event-resource';
