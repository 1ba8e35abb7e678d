/**
 * The system configuration a Debian bookworm node has besides its CNI files, where an operator
 * looks for or makes a setting that must survive a reboot: procps 2:4.0.2-3's /etc/sysctl.conf
 * (every line commented out) and /etc/sysctl.d with its README and the 99-sysctl.conf link to
 * sysctl.conf that procps' postinst makes, and systemd's /etc/modules-load.d (empty here; kmod's
 * /etc/modules is not modelled). Copied from a pristine bookworm install (`dpkg -V procps` clean).
 * The kernel does not read them: the simulation has no boot, so a file written here changes
 * nothing until someone runs `sysctl -p FILE` (or `sysctl --system`, which the shell lacks).
 */

/** procps' /etc/sysctl.conf on bookworm (mode 0644). */
export const SYSCTL_CONF = `#
# /etc/sysctl.conf - Configuration file for setting system variables
# See /etc/sysctl.d/ for additional system variables.
# See sysctl.conf (5) for information.
#

#kernel.domainname = example.com

# Uncomment the following to stop low-level messages on console
#kernel.printk = 3 4 1 3

###################################################################
# Functions previously found in netbase
#

# Uncomment the next two lines to enable Spoof protection (reverse-path filter)
# Turn on Source Address Verification in all interfaces to
# prevent some spoofing attacks
#net.ipv4.conf.default.rp_filter=1
#net.ipv4.conf.all.rp_filter=1

# Uncomment the next line to enable TCP/IP SYN cookies
# See http://lwn.net/Articles/277146/
# Note: This may impact IPv6 TCP sessions too
#net.ipv4.tcp_syncookies=1

# Uncomment the next line to enable packet forwarding for IPv4
#net.ipv4.ip_forward=1

# Uncomment the next line to enable packet forwarding for IPv6
#  Enabling this option disables Stateless Address Autoconfiguration
#  based on Router Advertisements for this host
#net.ipv6.conf.all.forwarding=1


###################################################################
# Additional settings - these settings can improve the network
# security of the host and prevent against some network attacks
# including spoofing attacks and man in the middle attacks through
# redirection. Some network environments, however, require that these
# settings are disabled so review and enable them as needed.
#
# Do not accept ICMP redirects (prevent MITM attacks)
#net.ipv4.conf.all.accept_redirects = 0
#net.ipv6.conf.all.accept_redirects = 0
# _or_
# Accept ICMP redirects only for gateways listed in our default
# gateway list (enabled by default)
# net.ipv4.conf.all.secure_redirects = 1
#
# Do not send ICMP redirects (we are not a router)
#net.ipv4.conf.all.send_redirects = 0
#
# Do not accept IP source route packets (we are not a router)
#net.ipv4.conf.all.accept_source_route = 0
#net.ipv6.conf.all.accept_source_route = 0
#
# Log Martian Packets
#net.ipv4.conf.all.log_martians = 1
#

###################################################################
# Magic system request Key
# 0=disable, 1=enable all, >1 bitmask of sysrq functions
# See https://www.kernel.org/doc/html/latest/admin-guide/sysrq.html
# for what other values do
#kernel.sysrq=438

`;

/** procps' /etc/sysctl.d/README.sysctl on bookworm (mode 0644). */
export const SYSCTL_D_README = `Kernel system variables configuration files

Files found under the /etc/sysctl.d directory that end with .conf are
parsed within sysctl(8) at boot time.  If you want to set kernel variables
you can either edit /etc/sysctl.conf or make a new file.

The filename isn't important, but don't make it a package name as it may clash
with something the package builder needs later. It must end with .conf though.

My personal preference would be for local system settings to go into
/etc/sysctl.d/local.conf but as long as you follow the rules for the names
of the file, anything will work. See sysctl.conf(8) man page for details
of the format.

After making any changes, please run "service procps force-reload" (or, from
a Debian package maintainer script "deb-systemd-invoke restart procps.service").
`;

/** Files written on every cluster node, by path. */
export const DEBIAN_ETC_FILES: Readonly<Record<string, string>> = {
  '/etc/sysctl.conf': SYSCTL_CONF,
  '/etc/sysctl.d/README.sysctl': SYSCTL_D_README,
};

/** Symlinks (path -> target, as `ls -l` shows it). */
export const DEBIAN_ETC_LINKS: Readonly<Record<string, string>> = {
  '/etc/sysctl.d/99-sysctl.conf': '../sysctl.conf',
};

/** Directories that exist empty. */
export const DEBIAN_ETC_DIRS: readonly string[] = ['/etc/modules-load.d'];
