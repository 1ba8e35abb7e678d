/**
 * Provides the registry's late plugins (`LATE_PLUGINS` in registry.ts): imported for its effect
 * by everything that may run them; the landing's engine (landing.ts) leaves them out. With them
 * the iptables model (kernel/iptables/provider.ts), which the landing's plugins need only later.
 */
import '../kernel/iptables/late';
import { bandwidthProgram } from './bandwidth';
import { calicoIpamProgram, calicoProgram } from './calico';
import { firewallProgram } from './firewall';
import { flannelProgram } from './flannel';
import { macvlanProgram } from './macvlan';
import { ptpProgram } from './ptp';
import { provideLatePlugins } from './registry';
import { staticProgram } from './static';
import { tuningProgram } from './tuning';

provideLatePlugins({
  bandwidth: bandwidthProgram,
  firewall: firewallProgram,
  ptp: ptpProgram,
  static: staticProgram,
  tuning: tuningProgram,
  calico: calicoProgram,
  'calico-ipam': calicoIpamProgram,
  flannel: flannelProgram,
  macvlan: macvlanProgram,
});
