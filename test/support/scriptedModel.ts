/**
 * The scripted loopback model the real ACP agents talk to, re-exported so that any tier (including the extension
 * host's bundle, which must not pull in the rest of the local server) can start one without importing the server tier.
 */
export { startFakeModel, type FakeModel, type FakeModelOptions } from '../server/agents/real/fakeModel';
