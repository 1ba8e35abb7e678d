/** Provides the iptables model to the kernel and the plugins (see provider.ts): imported for its effect. */
import { runIptablesImpl } from './exec';
import { provideIptables } from './provider';
import { iptablesSaveLines } from './save';

provideIptables({ run: runIptablesImpl, saveLines: iptablesSaveLines });
