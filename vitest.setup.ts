import { setAutoFreeze } from 'immer';
import './src/engine/sim/world';

// Tests run with frozen snapshots: code that mutates a recorded state fails loudly here.
setAutoFreeze(true);
