/**
 * Builders of the contract's shapes for tests (`@webbridge/contract/testing`): one per shape,
 * typed by the contract, so a new required field is written once. Only tests import them; no
 * package's sources do.
 */
export { aConversationSummary } from './aConversationSummary';
export { aHostMessage, aMessage } from './aMessage';
export { aProjection, type StateOverrides } from './aProjection';
export { aSettings } from './aSettings';
export { aSnapshot } from './aSnapshot';
