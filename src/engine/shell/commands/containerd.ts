/**
 * `containerd --version`: the release installed on the node (scenario field `containerd.version`,
 * or one installed since, which the daemon runs only from its next start), as its binary prints it (cmd/containerd/command/main.go VersionPrinter: app name, Go package,
 * version, revision). The daemon itself runs as a systemd unit: see systemctl, journalctl.
 */
import { releaseOf } from '../../runtime/releases';
import { crioReleaseOf } from '../../runtime/crio-releases';
import type { CommandContext } from '../types';

/** The commit of each containerd release tag (what `containerd --version` prints after it). */
export const REVISIONS: Readonly<Record<string, string>> = {
  '1.6.0': '39259a8f35919a0d02c9ecc2871ddd6ccf6a7c6e',
  '1.6.1': '10f428dac7cec44c864e1b830a4623af27a9fc70',
  '1.6.2': 'de8046a5501db9e0e478e1c10cbcfb21af4c6b2d',
  '1.6.3': 'f830866066ed06e71bad64871bccfd34daf6309c',
  '1.6.4': '212e8b6fa2f44b9c21b2798135fc6fb7c53efc16',
  '1.6.5': '96df0994faabc1944fc614e52b0b3c6feb609a57',
  '1.6.6': '10c12954828e7c7c9b6e0ea9b0c02b01407d3ae1',
  '1.6.7': '0197261a30bf81f1ee8e6a4dd2dea0ef95d67ccb',
  '1.6.8': '9cd3357b7fd7218e4aec3eae239db1f68a5a6ec6',
  '1.6.9': '1c90a442489720eec95342e1789ee8a5e1b9536f',
  '1.6.10': '770bd0108c32f3fb5c73ae1264f7e503fe7b2661',
  '1.6.11': 'd986545181c905378b0f90faa9c5eae3cbfa3755',
  '1.6.12': 'a05d175400b1145e5e6a735a6710579d181e7fb0',
  '1.6.13': '78f51771157abb6c9ed224c22013cdf09962315d',
  '1.6.14': '9ba4b250366a5ddde94bb7c9d1def331423aa323',
  '1.6.15': '5b842e528e99d4d4c1686467debf2bd4b88ecd86',
  '1.6.16': '31aa4358a36870b21a992d3ad2bef29e1d693bec',
  '1.6.17': '299b677800044531671d336af5f0976fd2e6ac70',
  '1.6.18': '2456e983eb9e37e47538f59ea18f2043c9a73640',
  '1.6.19': '1e1ea6e986c6c86565bc33d52e34b81b3e2bc71f',
  '1.6.20': '2806fc1057397dbaeefbea0e4e17bddfbd388f38',
  '1.6.21': '3dce8eb055cbb6872793272b4f20ed16117344f8',
  '1.6.22': '8165feabfdfe38c65b599c4993d227328c231fca',
  '1.6.23': 'b69f1ad231b6d87eeb30504398075a92d615e83e',
  '1.6.24': '61f9fd88f79f081d64d6fa3bb1a0dc71ec870523',
  '1.6.25': 'd8f198a4ed8892c764191ef7b3b06d8a2eeb5c7f',
  '1.6.26': '3dd1e886e55dd695541fdcd67420c2888645a495',
  '1.6.27': 'a1496014c916f9e62104b33d1bb5bd03b0858e59',
  '1.6.28': 'ae07eda36dd25f8a1b98dfbf587313b99c0190bb',
  '1.6.29': '082b2d0dfc985d83b87fd8a6cfc92250ac7217a4',
  '1.6.30': 'd68034c2fe20ce0fc29692f87afced1edf7d77da',
  '1.6.31': 'e377cd56a71523140ca6ae87e30244719194a521',
  '1.6.32': '8b3b7ca2e5ce38e8f31a34f35b2b68ceb8470d89',
  '1.6.33': 'd2d58213f83a351ca8f528a95fbd145f5654e957',
  '1.6.34': 'e9e2c7707933f32aa891dda794a1df36a6ec7aee',
  '1.6.35': '3e986834dfcde68bf7a0b682900f1e75c494ebea',
  '1.6.36': '88c3d9bc5b5a193f40b7c14fa996d23532d6f956',
  '1.6.37': 'cfc13b6d5cc1d828ac367b0a035c178546e4e0c4',
  '1.6.38': 'cf158e884cfe4812a6c371b59e4ea9bc4c46e51a',
  '1.6.39': 'b4506601d9819897827fd0611288969e8b3ccae9',
  '1.7.0': '1fbd70374134b891f97ce19c70b6e50c7b9f4e0d',
  '1.7.1': '1677a17964311325ed1c31e2c0a3589ce6d5c30d',
  '1.7.2': '0cae528dd6cb557f7201036e9f43420650207b58',
  '1.7.3': '7880925980b188f4c97b462f709d0db8e8962aff',
  '1.7.4': '488cd77cf2010e68e043ad4f9e8835822574f67a',
  '1.7.5': 'fe457eb99ac0e27b3ce638175ef8e68a7d2bc373',
  '1.7.6': '091922f03c2762540fd057fba91260237ff86acb',
  '1.7.7': '8c087663b0233f6e6e2f4515cee61d49f14746a8',
  '1.7.8': '8e4b0bde866788eec76735cc77c4720144248fb7',
  '1.7.9': '4f03e100cb967922bec7459a78d16ccbac9bb81d',
  '1.7.10': '4e1fe7492b9df85914c389d1f15a3ceedbb280ac',
  '1.7.11': '64b8a811b07ba6288238eefc14d898ee0b5b99ba',
  '1.7.12': '71909c1814c544ac47ab91d2e8b84718e517bb99',
  '1.7.13': '7c3aca7a610df76212171d200ca3811ff6096eb8',
  '1.7.14': 'dcf2847247e18caba8dce86522029642f60fe96b',
  '1.7.15': '926c9586fe4a6236699318391cd44976a98e31f1',
  '1.7.16': '83031836b2cf55637d7abf847b17134c51b38e53',
  '1.7.17': '3a4de459a68952ffb703bbe7f2290861a75b6b67',
  '1.7.18': 'ae71819c4f5e67bb4d5ae76a6b735f29cc25774e',
  '1.7.19': '2bf793ef6dc9a18e00cb12efb64355c2c9d5eb41',
  '1.7.20': '8fc6bcff51318944179630522a095cc9dbf9f353',
  '1.7.21': '472731909fa34bd7bc9c087e4c27943f9835f111',
  '1.7.22': '7f7fdf5fed64eb6a7caf99b3e12efcf9d60e311c',
  '1.7.23': '57f17b0a6295a39009d861b89e3b3b87b005ca27',
  '1.7.24': '88bf19b2105c8b17560993bee28a01ddc2f97182',
  '1.7.25': 'bcc810d6b9066471b0b6fa75f557a15a1cbf31bb',
  '1.7.26': '753481ec61c7c8955a23d6ff7bc8e4daed455734',
  '1.7.27': '05044ec0a9a75232cad458027ca83437aae3f4da',
  '1.7.28': 'b98a3aace656320842a23f4a392a33f46af97866',
  '1.7.29': '442cb34bda9a6a0fed82a2ca7cade05c5c749582',
  '1.7.30': '71c1c8666c6a999cc8c319160b6b2ea38c4a2c9e',
  '1.7.31': '96caa5dff04a9f1c0f6f0938feae22b6ca7eb0be',
  '1.7.32': '180a7b7385ae633344ff3db0db7eea11a4164f00',
  '1.7.33': 'e8b1a9bc270f9952197c470b8bad573b03a3a608',
  '1.7.34': 'fb9028b920d254bdb73fe998a2ef75a393c88686',
  '2.0.0': '207ad711eabd375a01713109a8a197d197ff6542',
  '2.0.1': '88aa2f531d6c2922003cc7929e51daf1c14caa0a',
  '2.0.2': 'c507a0257ea6462fbd6f5ba4f5c74facb04021f4',
  '2.0.3': '06b99ca80cdbfbc6cc8bd567021738c9af2b36ce',
  '2.0.4': '1a43cb6a1035441f9aca8f5666a9b3ef9e70ab20',
  '2.0.5': 'fb4c30d4ede3531652d86197bf3fc9515e5276d9',
  '2.0.6': '991cc3363c290ffd074e069f2b3034c7286ecbe0',
  '2.0.7': '4ac6c20c7bbf8177f29e46bbdc658fec02ffb8ad',
  '2.0.8': 'd2f61adbcb7f213e4fa4cc2468bb3b4cf14f8964',
  '2.0.9': 'afde7ca73951a79a9fa145d6a579dcd7b15d6371',
  '2.0.10': 'ffa3ba0cfc08e443758c01c73a69db403d31ad1b',
  '2.0.11': 'ea0b49555e46d04b7f7d844d1920f69d095e1df2',
  '2.1.0': '061792f0ecf3684fb30a3a0eb006799b8c6638a7',
  '2.1.1': 'cb1076646aa3740577fafbf3d914198b7fe8e3f7',
  '2.1.2': '64ed272067a24c2d917064eea25a78e1479d632f',
  '2.1.3': 'c787fb98911740dd3ff2d0e45ce88cdf01410486',
  '2.1.4': '75cb2b7193e4e490e9fbdc236c0e811ccaba3376',
  '2.1.5': 'fcd43222d6b07379a4be9786bda52438f0dd16a1',
  '2.1.6': 'c74fd8780002eb26bd5940ae339d690d891221c2',
  '2.1.7': '07ad9c703cb4a2adc322998afbe6e33c4f8790f7',
  '2.1.8': '97a35b7b64279cfcee8c568e7236a614c68bdca9',
  '2.1.9': '926009266892d80087b532f7f17ea14b43c4f23d',
  '2.2.0': '1c4457e00facac03ce1d75f7b6777a7a851e5c41',
  '2.2.1': 'dea7da592f5d1d2b7755e3a161be07f43fad8f75',
  '2.2.2': '301b2dac98f15c27117da5c8af12118a041a31d9',
  '2.2.3': '77c84241c7cbdd9b4eca2591793e3d4f4317c590',
  '2.2.4': '193637f7ee8ae5f5aa5248f49e7baa3e6164966e',
  '2.2.5': 'e53c7c1516c3b2bff98eb76f1f4117477e6f4e66',
  '2.2.6': '11ce9d5f3c68c941867e82890e93e815c1304f1b',
  '2.2.7': '7835c8dfefceee63b1a4f9e84e015ddc8434fdc3',
  '2.3.0': '2976f38ccbfcda5ef1364d63d60b0a304e4bf94a',
  '2.3.1': '64b425cf570b3b8dd1d4cc46da7c1fce65c6651a',
  '2.3.2': 'fff62f14765df376e5fc36f5a8f8e795b5670f61',
  '2.3.3': 'aad11006b869517fcd3009450b6f82da282e1a9b',
  '2.3.4': 'db8809540e1a7a9da5d518876894933ff55692ab',
};

/** The line `containerd --version` prints for a release. */
export function containerdVersionLine(version: string): string {
  const pkg = version.startsWith('1.')
    ? 'github.com/containerd/containerd'
    : 'github.com/containerd/containerd/v2';
  return `containerd ${pkg} v${version} ${REVISIONS[version] ?? ''}`.trimEnd();
}

export function containerd(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const c = ctx.sim.state.nodes[ctx.nodeName]?.containerd;
  if (args[0] === '--version' || args[0] === '-v') {
    // The binary on disk answers, not the daemon: a release installed while the old one runs
    // prints its own version (`crictl version` asks the daemon, which still runs the old one).
    const version =
      c && c.settings.runtime !== 'cri-o' ? (c.installed ?? releaseOf(c.settings).version) : null;
    if (version === null) {
      ctx.err('bash: containerd: command not found\n');
      return 127;
    }
    ctx.out(`${containerdVersionLine(version)}\n`);
    return 0;
  }
  ctx.err(
    'cnisim: containerd: only --version is simulated; the daemon runs as a systemd unit (systemctl status containerd, journalctl -u containerd)\n',
  );
  return 1;
}

/**
 * `crio --version` on a CRI-O node: urfave/cli's `crio version <app.Version>`, where app.Version
 * is internal/version Info.String() without its "Version: " prefix, its lines indented (cmd/crio
 * main.go). Only the fields that follow from the release are printed: the version and the tag's
 * commit; the build's own fields (dates, Go version, build tags, ...) are left out.
 */
export function crio(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const c = ctx.sim.state.nodes[ctx.nodeName]?.containerd;
  if (!c || c.settings.runtime !== 'cri-o') {
    ctx.err('bash: crio: command not found\n');
    return 127;
  }
  if (args[0] === '--version' || args[0] === '-v' || args[0] === 'version') {
    const r = crioReleaseOf(c.settings.version);
    // tabwriter(minwidth 0, padding 2) over every field: the longest name is "AppArmorEnabled:".
    const pad = (k: string) => `${k}:`.padEnd('AppArmorEnabled:'.length + 2);
    ctx.out(
      `crio version ${r.version}\n   ${pad('GitCommit')}${r.gitCommit}\n   ${pad('GitTreeState')}clean\n`,
    );
    return 0;
  }
  ctx.err(
    'cnisim: crio: only --version is simulated; the daemon runs as a systemd unit (systemctl status crio, journalctl -u crio)\n',
  );
  return 1;
}
