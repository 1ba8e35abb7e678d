/**
 * Provides the node shell to every `Cluster` (see `provideShell` in cluster.ts). Imported for
 * its effect by what runs shell lines on a cluster: the fault catalogue, scenario runs, the
 * terminal and the app's whole engine; the landing's engine (landing.ts) leaves it out.
 */
import * as shell from '../shell';
import { provideShell } from './cluster';

provideShell(shell);
