/** libxt_LOG.c */
import { ParamError } from '../../errors';
import { xtStrtoui } from '../../numparse';
import { num, saveString, str } from '../common';
import type { Extension } from '../framework';

const LOG_LEVELS_PARSE = ['emerg', 'alert', 'crit', 'error', 'warning', 'notice', 'info', 'debug'];
const LOG_LEVELS_PRINT = ['emerg', 'alert', 'crit', 'err', 'warn', 'notice', 'info', 'debug'];

export const log: Extension = {
  name: 'LOG',
  kind: 'target',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [
    { name: 'log-level', id: 0, hasArg: 1 },
    { name: 'log-prefix', id: 1, hasArg: 1 },
    { name: 'log-tcp-sequence', id: 2, hasArg: 0 },
    { name: 'log-tcp-options', id: 3, hasArg: 0 },
    { name: 'log-ip-options', id: 4, hasArg: 0 },
    { name: 'log-uid', id: 5, hasArg: 0 },
    { name: 'log-macdecode', id: 6, hasArg: 0 },
  ],
  init: () => ({ level: 4, prefix: '', flags: 0 }),
  parse(d, i) {
    const arg = i.arg ?? '';
    switch (i.id) {
      case 0: {
        let level = xtStrtoui(arg, 0, 7);
        if (level === undefined) {
          const idx = LOG_LEVELS_PARSE.indexOf(arg);
          if (idx >= 0) level = idx;
          else if (arg === 'panic') level = 0;
          else throw new ParamError(`log level "${arg}" unknown\n`);
        }
        return { ...d, level };
      }
      case 1:
        if (arg.length < 1)
          throw new ParamError('Argument must have a minimum length of 1 characters\n');
        return { ...d, prefix: arg.slice(0, 29) };
      default: {
        const bit = [0, 0, 1, 2, 4, 8, 0x20][i.id] ?? 0;
        return { ...d, flags: num(d, 'flags') | bit };
      }
    }
  },
  save(d) {
    let out = '';
    if (str(d, 'prefix') !== '') out += ' --log-prefix' + saveString(str(d, 'prefix'));
    if (num(d, 'level') !== 4) out += ` --log-level ${num(d, 'level')}`;
    const f = num(d, 'flags');
    if (f & 1) out += ' --log-tcp-sequence';
    if (f & 2) out += ' --log-tcp-options';
    if (f & 4) out += ' --log-ip-options';
    if (f & 8) out += ' --log-uid';
    if (f & 0x20) out += ' --log-macdecode';
    return out;
  },
  print(d, numeric) {
    const f = num(d, 'flags');
    let out = ' LOG';
    if (numeric) out += ` flags ${f} level ${num(d, 'level')}`;
    else {
      out += ` level ${LOG_LEVELS_PRINT[num(d, 'level')] ?? ''}`;
      if (f & 1) out += ' tcp-sequence';
      if (f & 2) out += ' tcp-options';
      if (f & 4) out += ' ip-options';
      if (f & 8) out += ' uid';
      if (f & 0x20) out += ' macdecode';
    }
    if (str(d, 'prefix') !== '') out += ` prefix "${str(d, 'prefix')}"`;
    return out;
  },
};
