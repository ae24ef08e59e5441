/**
 * The bridge's error type is the protocol's: {@link ProtocolError} from the contract, so hosts
 * throw it without importing the server. `BridgeError` stays exported under its old name.
 */
export { ProtocolError as BridgeError } from '@webbridge/contract';
