// The codes module's surface: what app.ts composes and other modules may call.
export {
  codeAppliesTo,
  discountOf,
  isCodeLimit,
  requireCode,
  requireWorksNow,
  takeCodeUses,
  usesOf,
  wrongCodesQuota,
  type EventCode,
} from './code-uses';
export { fitsOneStatement, lockCodeForStatement, recentCode } from './codes-in-statement';
export { codesCallables } from './codes.functions';
export { codesLiveQueries } from './codes.live';
export { eventCodesTopic } from './topics';
