import { setAutoFreeze } from 'immer';
import './src/engine/sim/world';
// The whole engine, as the app's loads it: clusters have their shell, sessions the fault
// catalogue, the registry every plugin.
import './src/engine/cluster/with-shell';
import './src/engine/session/with-faults';
import './src/engine/plugins/late';
import './src/engine/runtime/crio-late';
import './src/engine/kernel/iptables/late';

// Tests run with frozen snapshots: code that mutates a recorded state fails loudly here.
setAutoFreeze(true);
