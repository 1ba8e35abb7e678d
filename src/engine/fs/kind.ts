/** The file system a real path is on (the shell's `stat -f`, containerd's fsnotify of the conf dir). */
export function fsKind(p: string): 'tmpfs' | 'proc' | 'ext4' {
  if (p === '/proc' || p.startsWith('/proc/')) return 'proc';
  if (p === '/run' || p.startsWith('/run/')) return 'tmpfs';
  return 'ext4';
}
