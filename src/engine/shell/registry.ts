/**
 * The commands a node's shell knows by default (more can be added with
 * `CommandRegistry.register`). docs/shell.md lists them with their options.
 */
import { BUILTIN_COMMANDS } from './commands/builtins';
import { CNITOOL_COMMANDS } from './commands/cnitool';
import { CONNTRACK_COMMANDS } from './commands/conntrack';
import { CURL_COMMANDS } from './commands/curl';
import { FILE_COMMANDS } from './commands/files';
import { GREP_COMMANDS } from './commands/grep';
import { HOSTNAME_COMMANDS } from './commands/hostname';
import { IP_COMMANDS } from './commands/ip';
import { JQ_COMMANDS } from './commands/jq';
import { K8S_COMMANDS } from './commands/k8s';
import { MISC_COMMANDS } from './commands/misc';
import { MODULE_COMMANDS } from './commands/modules';
import { NC_COMMANDS } from './commands/nc';
import { NETREAD_COMMANDS } from './commands/netread';
import { PING_COMMANDS } from './commands/ping';
import { PRINTF_COMMANDS } from './commands/printf';
import { READER_COMMANDS } from './commands/readers';
import { SED_COMMANDS } from './commands/sed';
import { SYSCTL_COMMANDS } from './commands/sysctl';
import { TCPDUMP_COMMANDS } from './commands/tcpdump';
import { TEST_COMMANDS } from './commands/test';
import { TRACEROUTE_COMMANDS } from './commands/traceroute';
import { CommandRegistry } from './types';

export function defaultCommands(): CommandRegistry {
  return new CommandRegistry([
    ...BUILTIN_COMMANDS,
    ...HOSTNAME_COMMANDS,
    ...PRINTF_COMMANDS,
    ...TEST_COMMANDS,
    ...FILE_COMMANDS,
    ...IP_COMMANDS,
    ...SYSCTL_COMMANDS,
    ...MODULE_COMMANDS,
    ...PING_COMMANDS,
    ...CONNTRACK_COMMANDS,
    ...TCPDUMP_COMMANDS,
    ...CURL_COMMANDS,
    ...NC_COMMANDS,
    ...TRACEROUTE_COMMANDS,
    ...SED_COMMANDS,
    ...JQ_COMMANDS,
    ...NETREAD_COMMANDS,
    ...READER_COMMANDS,
    ...GREP_COMMANDS,
    ...K8S_COMMANDS,
    ...CNITOOL_COMMANDS,
    ...MISC_COMMANDS,
  ]);
}
