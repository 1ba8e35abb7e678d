/**
 * Provides the fault catalogue's injector to every `Session` (see `provideFaults` in
 * session.ts). Imported for its effect by the app's whole engine (app.ts) and the tests; the
 * landing's engine (landing.ts) leaves the catalogue out.
 */
import { injectFault } from '../faults/inject';
import { provideFaults } from './session';

provideFaults(injectFault);
