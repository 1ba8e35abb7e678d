/**
 * libcni RawExec.pluginErr (pkg/invoke/raw_exec.go) at every tag a containerd or CRI-O release
 * vendors (v1.0.1 – v1.3.0): a plugin that fails with only stderr gives `netplugin failed:
 * "<stderr>"`, without the exec error. Reference libcni.md writes `…: exit status 1`, which is
 * libcni's main branch after v1.3.0 (commit 92863cf, 2025-06-16, in no tag yet); the recordings'
 * README (conformance/fixtures) has the released form, and recordings win.
 */
import { describe, expect, it } from 'vitest';
import type { ExecResult } from '../os/process';
import { pluginErr } from './invoke';

const res = (r: Partial<ExecResult>): ExecResult =>
  ({ stdout: '', stderr: '', exitCode: 1, ...r }) as ExecResult;

describe('pluginErr (raw_exec.go, v1.1.2 – v1.3.0)', () => {
  it('words each kind of failure as the released libcni does', () => {
    expect(pluginErr(res({})).message).toBe(
      'netplugin failed with no error message: exit status 1',
    );
    expect(pluginErr(res({ stderr: 'boom\n' })).message).toBe('netplugin failed: "boom\\n"');
    expect(pluginErr(res({ stdout: 'oops' })).message).toBe(
      'netplugin failed but error parsing its diagnostic message "oops": invalid character \'o\' looking for beginning of value',
    );
    const e = pluginErr(res({ stdout: '{"code":11,"msg":"no IP addresses","details":"d"}' }));
    expect([e.code, e.message]).toEqual([11, 'no IP addresses; d']);
  });
});
