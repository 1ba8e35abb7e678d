/** libxt_dccp.c (ports only) */
import { portsOnly } from '../ports';

export const dccp = portsOnly('dccp', true);
