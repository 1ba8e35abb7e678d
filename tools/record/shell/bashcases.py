"""
Shared by the recorders of bash's own behaviour (record-expansion.py, record-read-builtin.py,
record-case.py, record-cond.py): runs each command line as `bash -c CMD` in /tmp with a clean
environment and /dev/null as its input, and writes one JSON line a case (cmd, stdout, stderr,
exitCode) for src/engine/shell/bash-golden.ts.
"""
import json, subprocess

ENV = {'PATH': '/usr/bin:/bin', 'HOME': '/root', 'LANG': 'C.UTF-8'}


def record(path, cmds, leftovers=()):
    """Records `cmds` into `path`, then removes the files named in `leftovers`."""
    with open(path, 'w') as out:
        for cmd in cmds:
            p = subprocess.run(['bash', '-c', cmd], cwd='/tmp', env=ENV, capture_output=True,
                               stdin=subprocess.DEVNULL, timeout=5)
            out.write(json.dumps({'cmd': cmd, 'stdout': p.stdout.decode(), 'stderr': p.stderr.decode(),
                                  'exitCode': p.returncode}, ensure_ascii=False) + '\n')
    if leftovers:
        subprocess.run(['rm', '-f', *leftovers])
