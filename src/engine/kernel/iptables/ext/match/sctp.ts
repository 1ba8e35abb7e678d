/** libxt_sctp.c (ports only) */
import { portsOnly } from '../ports';

export const sctp = portsOnly('sctp', false);
