/** Provides CRI-O to the cluster (see crio-provider.ts): imported for its effect. */
import { Crio, crioSettings, newCrioState } from './crio';
import { provideCrio } from './crio-provider';

provideCrio({ Crio, crioSettings, newCrioState });
