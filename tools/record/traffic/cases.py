"""The traffic cases record.py records. Commands are written with logical namespace names
(node-1, node-2, pod-a, outside) and `<tmp>` for the recorder's temp dir; each runs with bash
inside the node namespace named by `node`."""
import json

# What a node is before the pods come: lo up, forwarding on, br_netfilter's
# bridge-nf-call-iptables on (the node defaults); rp_filter stays as a new namespace has it.
NODE_DEFAULTS_CMD = 'ip link set lo up && sysctl -qw net.ipv4.ip_forward=1 net.bridge.bridge-nf-call-iptables=1'


def node_defaults(node):
    return cmd(node, NODE_DEFAULTS_CMD, role='node-defaults')


def bridge_list(subnet, node, ip_masq=False, hairpin=False, portmap=True, snat=True):
    plugins = [{
        'type': 'bridge', 'bridge': 'cni0', 'isGateway': True, 'ipMasq': ip_masq,
        'hairpinMode': hairpin,
        'ipam': {'type': 'host-local', 'ranges': [[{'subnet': subnet}]],
                 'routes': [{'dst': '0.0.0.0/0'}], 'dataDir': '<tmp>/%s/ipam' % node},
    }]
    if portmap:
        pm = {'type': 'portmap', 'capabilities': {'portMappings': True}}
        if not snat:
            pm['snat'] = False
        plugins.append(pm)
    return json.dumps({'cniVersion': '1.0.0', 'name': 'podnet', 'plugins': plugins}, indent=2) + '\n'


def flannel_list(node):
    return json.dumps({'cniVersion': '0.3.1', 'name': 'cbr0', 'plugins': [
        {'type': 'flannel', 'subnetFile': '<tmp>/%s/subnet.env' % node, 'dataDir': '<tmp>/%s/flannel' % node,
         'ipam': {'dataDir': '<tmp>/%s/ipam' % node},
         'delegate': {'hairpinMode': True, 'isDefaultGateway': True}},
        {'type': 'portmap', 'capabilities': {'portMappings': True}},
    ]}, indent=2) + '\n'


def cmd(node, c, **kw):
    return {'node': node, 'cmd': c, **kw}


def ping(node, pod, dst, extra=''):
    return cmd(node, 'ip netns exec %s ping -c 1 -W 1 %s%s' % (pod, extra + ' ' if extra else '', dst))


def add(node, pod, cid, conflist='podnet', pm=None):
    st = {'node': node, 'cni': 'ADD', 'pod': pod, 'containerId': cid, 'conflist': conflist}
    if pm:
        st['portMappings'] = pm
    return st


def nc(node, ns, host, port):
    prefix = 'ip netns exec %s ' % ns if ns else ''
    return cmd(node, '%snc -v -z -w 2 %s %d' % (prefix, host, port))


HOSTPORT = [{'hostPort': 8080, 'containerPort': 80, 'protocol': 'tcp'}]

OUTSIDE = [
    cmd('node-1', 'ip link add eth0 type veth peer name up0 netns outside && ip addr add 192.168.50.1/24 dev eth0 && ip link set eth0 up', role='outside'),
    cmd('node-1', 'ip -n outside link set lo up && ip -n outside addr add 192.168.50.100/24 dev up0 && ip -n outside link set up0 up', role='outside'),
]

# The kernel sends IGMP membership reports for a while after an interface comes up: they pass
# POSTROUTING and conntrack at times that vary from run to run. Counters and the conntrack table
# start from zero once they are over, so that the fixture holds what the case's traffic did.
RESET = cmd('node-1', 'sleep 3 && iptables -t nat -Z && iptables -Z && conntrack -F', role='reset',
            note='counters and conntrack from zero, after the IGMP reports of the new interfaces')

LISTEN_A = cmd('node-1', 'ip netns exec pod-a nc -lk 80 </dev/null >/dev/null 2>&1 & sleep 0.5; kill -0 $! && echo listening',
               role='listener', note='a TCP listener on port 80 in pod-a (netcat-openbsd), left running; kill -0 shows it is')


def hostport_case(name, description, hairpin, bnf, notes, snat=True):
    steps = [node_defaults('node-1')]
    if not bnf:
        steps.append(cmd('node-1', 'sysctl -w net.bridge.bridge-nf-call-iptables=0'))
    steps += OUTSIDE + [
        add('node-1', 'pod-a', 'a', pm=HOSTPORT),
        add('node-1', 'pod-b', 'b'),
        LISTEN_A,
        RESET,
        nc('node-1', 'outside', '192.168.50.1', 8080),
        nc('node-1', None, '192.168.50.1', 8080),
        nc('node-1', 'pod-b', '10.244.1.2', 80),
        nc('node-1', 'pod-b', '192.168.50.1', 8080),
        nc('node-1', 'pod-a', '192.168.50.1', 8080),
    ]
    return {
        'name': name, 'description': description, 'notes': notes,
        'nodes': ['node-1'], 'extraNamespaces': ['outside'], 'pods': ['pod-a', 'pod-b'],
        'conflists': {'podnet': bridge_list('10.244.1.0/24', 'node-1', hairpin=hairpin, snat=snat)},
        'steps': steps,
    }


TWO_NODES = [
    node_defaults('node-1'),
    node_defaults('node-2'),
    cmd('node-1', 'ip link add eth0 type veth peer name eth0 netns node-2 && ip addr add 192.168.50.1/24 dev eth0 && ip link set eth0 up', role='underlay'),
    cmd('node-2', 'ip addr add 192.168.50.2/24 dev eth0 && ip link set eth0 up', role='underlay'),
]

CASES = [
    {
        'name': 'pods-one-bridge',
        'description': 'Two pods on one bridge (bridge + host-local, isGateway, ipMasq false): pod to pod, pod to the gateway, to an address nobody has, the node to a pod.',
        'notes': [
            'A ping to an address nobody has exits 1 after -W 1 with only the statistics: ARP gives up later than the 1 s wait, so there is no Destination Host Unreachable line.',
            'No rule in the node namespace needs conntrack, so conntrack -L shows no entry: the kernel hooks conntrack into a namespace only when something there uses it.',
        ],
        'nodes': ['node-1'], 'pods': ['pod-a', 'pod-b'],
        'conflists': {'podnet': bridge_list('10.244.1.0/24', 'node-1', portmap=False)},
        'steps': [
            node_defaults('node-1'),
            add('node-1', 'pod-a', 'a'),
            add('node-1', 'pod-b', 'b'),
            ping('node-1', 'pod-a', '10.244.1.3'),
            ping('node-1', 'pod-b', '10.244.1.2'),
            ping('node-1', 'pod-a', '10.244.1.1'),
            ping('node-1', 'pod-a', '10.244.1.99'),
            cmd('node-1', 'ping -c 1 -W 1 10.244.1.2'),
        ],
    },
    hostport_case(
        'hostport', 'A hostPort (portmap 8080 -> pod-a:80) on the node address 192.168.50.1, bridge-nf-call-iptables=1, hairpin off: from an outside namespace, from the node, from pod-b, and from pod-a to its own hostPort.',
        hairpin=False, bnf=True, notes=[
            'From outside, from the node itself (OUTPUT DNAT) and from pod-b the hostPort answers; pod-b is masqueraded to the gateway 10.244.1.1 (portmap marks sources in the pod subnet in CNI-HOSTPORT-SETMARK, CNI-HOSTPORT-MASQ masquerades them).',
            'pod-a cannot reach its own hostPort with hairpin off (nc times out, exit 1): with bridge-nf-call-iptables=1 the DNAT happens as the frame enters the bridge, and the frame would have to leave by the port it came in on. Its conntrack entry is never confirmed, so conntrack -L does not show it.',
        ]),
    hostport_case(
        'hostport-hairpin', 'The hostport case with hairpinMode true on the bridge ports.',
        hairpin=True, bnf=True, notes=['With hairpinMode true pod-a reaches its own hostPort, masqueraded to 10.244.1.1 like pod-b.']),
    hostport_case(
        'hostport-bridge-nf-off', 'The hostport case with bridge-nf-call-iptables=0 in the node namespace (hairpin off).',
        hairpin=False, bnf=False, notes=[
            'With bridge-nf-call-iptables=0 and hairpin off, pod-a reaches its own hostPort and pod-b reaches pod-a\'s: the frames to the node address go to the bridge device and are routed; portmap masquerades sources in the pod subnet to 10.244.1.1, so the replies come back the same way.',
        ]),
    hostport_case(
        'hostport-bridge-nf-off-nosnat', 'The hostport case with bridge-nf-call-iptables=0, hairpin off, and portmap snat false.',
        hairpin=False, bnf=False, snat=False, notes=[
            'Without portmap\'s masquerade, pod-b\'s connection to pod-a\'s hostPort fails: pod-a answers pod-b directly on the bridge, and with bridge-nf-call-iptables=0 that reply never meets conntrack, so its source is not translated back. pod-a\'s connection to its own hostPort fails too: the translated SYN comes back to pod-a from its own address, and pod-a answers itself without the node.',
        ]),
    {
        'name': 'egress-masq',
        'description': "Egress from a pod to an 'outside' namespace on the node's network, with bridge's ipMasq true: ping and a TCP connect, masqueraded to the node address.",
        'notes': ['The ICMP and TCP entries have the node address 192.168.50.1 as the reply destination: bridge\'s ipMasq chain masquerades everything from the pod that is not for 10.244.1.0/24 or multicast.'],
        'nodes': ['node-1'], 'extraNamespaces': ['outside'], 'pods': ['pod-a'],
        'conflists': {'podnet': bridge_list('10.244.1.0/24', 'node-1', ip_masq=True, portmap=False)},
        'steps': [node_defaults('node-1')] + OUTSIDE + [
            add('node-1', 'pod-a', 'a'),
            cmd('node-1', 'ip netns exec outside nc -lk 9000 </dev/null >/dev/null 2>&1 & sleep 0.5; kill -0 $! && echo listening', role='listener', note='a TCP listener on port 9000 outside; kill -0 shows it is running'),
            RESET,
            ping('node-1', 'pod-a', '192.168.50.100'),
            nc('node-1', 'pod-a', '192.168.50.100', 9000),
        ],
    },
    {
        'name': 'egress-no-masq',
        'description': "The egress case with ipMasq false: the outside namespace has no route back to the pod subnet.",
        'notes': ['The echo request leaves with source 10.244.1.2 and the outside namespace has no route back: exit 1. The node address itself answers.'],
        'nodes': ['node-1'], 'extraNamespaces': ['outside'], 'pods': ['pod-a'],
        'conflists': {'podnet': bridge_list('10.244.1.0/24', 'node-1', ip_masq=False, portmap=False)},
        'steps': [node_defaults('node-1')] + OUTSIDE + [
            add('node-1', 'pod-a', 'a'),
            ping('node-1', 'pod-a', '192.168.50.100'),
            ping('node-1', 'pod-a', '192.168.50.1'),
        ],
    },
    {
        'name': 'host-gw',
        'description': 'Two node namespaces joined by a veth pair (192.168.50.1 and .2), each with its own bridge and pod subnet, and a route to the other node\'s pod subnet via its node address (host-gw). Then ip_forward=0 on node-2.',
        'notes': ['On the underlay, tcpdump shows the pods\' own addresses: host-gw routes them unencapsulated.', 'ip_forward=0 on node-2 stops only what node-2 must forward: pod-a to pod-c and pod-c to pod-a exit 1; pod-c reaches its gateway, pod-a reaches pod-b, and pod-a reaches node-2\'s own address (delivered there, not forwarded).'],
        'nodes': ['node-1', 'node-2'], 'pods': ['pod-a', 'pod-b', 'pod-c'],
        'conflists': {
            'podnet': bridge_list('10.244.1.0/24', 'node-1', portmap=False),
            'podnet-2': bridge_list('10.244.2.0/24', 'node-2', portmap=False),
        },
        'steps': TWO_NODES + [
            add('node-1', 'pod-a', 'a'),
            add('node-1', 'pod-b', 'b'),
            add('node-2', 'pod-c', 'c', conflist='podnet-2'),
            cmd('node-1', 'ip route add 10.244.2.0/24 via 192.168.50.2 dev eth0', role='host-gw'),
            cmd('node-2', 'ip route add 10.244.1.0/24 via 192.168.50.1 dev eth0', role='host-gw'),
            ping('node-1', 'pod-a', '10.244.2.2'),
            ping('node-2', 'pod-c', '10.244.1.2'),
            ping('node-1', 'pod-b', '10.244.1.2'),
            ping('node-1', 'pod-a', '192.168.50.2'),
            cmd('node-1', 'timeout 5 tcpdump -i eth0 -nn -t -c 2 icmp 2>/dev/null & sleep 1; ip netns exec pod-a ping -c 1 -W 1 10.244.2.2 >/dev/null; wait',
                role='capture', note='the underlay carries the pod addresses as they are'),
            cmd('node-2', 'sysctl -w net.ipv4.ip_forward=0'),
            ping('node-1', 'pod-a', '10.244.2.2'),
            ping('node-2', 'pod-c', '10.244.1.2'),
            ping('node-1', 'pod-b', '10.244.1.2'),
            ping('node-2', 'pod-c', '10.244.2.1'),
            ping('node-1', 'pod-a', '192.168.50.2'),
        ],
    },
    {
        'name': 'vxlan',
        'description': 'Two node namespaces joined by a veth pair, pods added by the flannel plugin (subnet.env as flanneld writes it: FLANNEL_MTU 1450), and flannel.1 as flanneld sets it up: VXLAN VNI 1, UDP 8472, nolearning, MTU 1450, the address <subnet>.0/32, a route to the other subnet via <other>.0 onlink, a permanent neighbour and an FDB entry to the other node. Then the MTU with DF, and ip_forward=0 on node-2.',
        'needsFlannel': True,
        'notes': [
            'Across the nodes the TTL is 62 (two routed hops). A 1422-byte payload with DF fits the pod MTU 1450; 1423 fails in pod-a itself: ping: local error: message too long, mtu=1450 (+1 errors), exit 1.',
            'flannel.1\'s MAC addresses are the recorder\'s choice (flanneld picks its own); flanneld\'s masquerade rules are not part of the recording, so the nodes have no iptables rule and conntrack tracks nothing.',
            'ip_forward=0 on node-2: pod-a to pod-c fails, pod-c still reaches its gateway.',
            'On the underlay, tcpdump shows UDP from node to node on port 8472 and decodes it as OTV (the protocol tcpdump assigns to that port) with flags [I] and instance 1 (the VNI), the pods\' ICMP inside.',
        ],
        'nodes': ['node-1', 'node-2'], 'pods': ['pod-a', 'pod-b', 'pod-c'],
        'conflists': {'cbr0': flannel_list('node-1'), 'cbr0-2': flannel_list('node-2')},
        'steps': TWO_NODES + [
            cmd('node-1', "mkdir -p <tmp>/node-1 && printf 'FLANNEL_NETWORK=10.244.0.0/16\\nFLANNEL_SUBNET=10.244.1.1/24\\nFLANNEL_MTU=1450\\nFLANNEL_IPMASQ=true\\n' > <tmp>/node-1/subnet.env", role='flanneld'),
            cmd('node-2', "mkdir -p <tmp>/node-2 && printf 'FLANNEL_NETWORK=10.244.0.0/16\\nFLANNEL_SUBNET=10.244.2.1/24\\nFLANNEL_MTU=1450\\nFLANNEL_IPMASQ=true\\n' > <tmp>/node-2/subnet.env", role='flanneld'),
            cmd('node-1', 'ip link add flannel.1 address 0e:f1:00:00:01:00 mtu 1450 type vxlan id 1 local 192.168.50.1 dev eth0 dstport 8472 nolearning && ip addr add 10.244.1.0/32 dev flannel.1 && ip link set flannel.1 up', role='flanneld'),
            cmd('node-2', 'ip link add flannel.1 address 0e:f1:00:00:02:00 mtu 1450 type vxlan id 1 local 192.168.50.2 dev eth0 dstport 8472 nolearning && ip addr add 10.244.2.0/32 dev flannel.1 && ip link set flannel.1 up', role='flanneld'),
            cmd('node-1', 'ip neigh replace 10.244.2.0 lladdr 0e:f1:00:00:02:00 dev flannel.1 nud permanent && bridge fdb append 0e:f1:00:00:02:00 dev flannel.1 dst 192.168.50.2 && ip route add 10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink', role='flanneld'),
            cmd('node-2', 'ip neigh replace 10.244.1.0 lladdr 0e:f1:00:00:01:00 dev flannel.1 nud permanent && bridge fdb append 0e:f1:00:00:01:00 dev flannel.1 dst 192.168.50.1 && ip route add 10.244.1.0/24 via 10.244.1.0 dev flannel.1 onlink', role='flanneld'),
            add('node-1', 'pod-a', 'a', conflist='cbr0'),
            add('node-1', 'pod-b', 'b', conflist='cbr0'),
            add('node-2', 'pod-c', 'c', conflist='cbr0-2'),
            ping('node-1', 'pod-a', '10.244.2.2'),
            ping('node-2', 'pod-c', '10.244.1.2'),
            ping('node-1', 'pod-a', '10.244.1.3'),
            ping('node-1', 'pod-a', '10.244.2.2', extra='-M do -s 1422'),
            ping('node-1', 'pod-a', '10.244.2.2', extra='-M do -s 1423'),
            cmd('node-1', 'ip -d link show flannel.1'),
            cmd('node-1', 'timeout 5 tcpdump -i eth0 -nn -t -c 2 udp port 8472 2>/dev/null & sleep 1; ip netns exec pod-a ping -c 1 -W 1 10.244.2.2 >/dev/null; wait',
                role='capture', note='the underlay carries the pods\' packets inside VXLAN (UDP 8472, VNI 1) between the node addresses'),
            cmd('node-2', 'sysctl -w net.ipv4.ip_forward=0'),
            ping('node-1', 'pod-a', '10.244.2.2'),
            ping('node-2', 'pod-c', '10.244.2.1'),
            ping('node-1', 'pod-a', '10.244.1.3'),
        ],
    },
]
