/**
 * The commands a node's shell knows by default. Later issues register more (read commands such
 * as `ip link show`, `ls`, `iptables-save`) with `CommandRegistry.register`.
 */
import { BUILTIN_COMMANDS } from './commands/builtins';
import { FILE_COMMANDS } from './commands/files';
import { IP_COMMANDS } from './commands/ip';
import { GREP_COMMANDS } from './commands/grep';
import { JQ_COMMANDS } from './commands/jq';
import { NETREAD_COMMANDS } from './commands/netread';
import { PRINTF_COMMANDS } from './commands/printf';
import { READER_COMMANDS } from './commands/readers';
import { SED_COMMANDS } from './commands/sed';
import { SYSCTL_COMMANDS } from './commands/sysctl';
import { TEST_COMMANDS } from './commands/test';
import { CommandRegistry } from './types';

export function defaultCommands(): CommandRegistry {
  return new CommandRegistry([
    ...BUILTIN_COMMANDS,
    ...PRINTF_COMMANDS,
    ...TEST_COMMANDS,
    ...FILE_COMMANDS,
    ...IP_COMMANDS,
    ...SYSCTL_COMMANDS,
    ...SED_COMMANDS,
    ...JQ_COMMANDS,
    ...NETREAD_COMMANDS,
    ...READER_COMMANDS,
    ...GREP_COMMANDS,
  ]);
}
