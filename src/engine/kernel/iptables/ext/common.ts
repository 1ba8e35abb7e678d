/** Helpers shared by the extensions: ExtData accessors and xtables.c parsers/printers. */
import { ParamError } from '../errors';
import { hex32, xtStrtoui, xtStrtouiEnd } from '../numparse';
import type { ExtData } from '../types';

const NO_QUOTE = /^[_\-0-9a-zA-Z]+$/;

/** xtables_save_string(): quote unless only [_-0-9a-zA-Z]; escape " \ ' with a backslash. */
export function saveString(value: string): string {
  if (NO_QUOTE.test(value)) return ' ' + value;
  return ' "' + value.replace(/["\\']/g, (c) => '\\' + c) + '"';
}

export function num(d: ExtData, k: string): number {
  const v = d[k];
  return typeof v === 'number' ? v : 0;
}

export function bool(d: ExtData, k: string): boolean {
  return d[k] === true;
}

export function str(d: ExtData, k: string): string {
  const v = d[k];
  return typeof v === 'string' ? v : '';
}

export function pair(d: ExtData, k: string): [number, number] {
  const v = d[k];
  if (Array.isArray(v) && typeof v[0] === 'number' && typeof v[1] === 'number') return [v[0], v[1]];
  return [0, 0xffff];
}

/** xtopt XTTYPE_MARKMASK32 (value[/mask]) and XTTYPE_UINT32. */
export function parseMark(
  ext: string,
  optName: string,
  text: string,
  withMask: boolean,
): [number, number] {
  if (!withMask) {
    const v = xtStrtoui(text, 0, 0xffffffff);
    if (v === undefined)
      throw new ParamError(
        `${ext}: bad value for option "--${optName}", or out of range (0-4294967295).\n`,
      );
    return [v >>> 0, 0xffffffff];
  }
  const bad = (): never => {
    throw new ParamError(`${ext}: bad integer value for option "--${optName}", or out of range.\n`);
  };
  const r = xtStrtouiEnd(text, 0, 0xffffffff);
  if (r === undefined) return bad();
  let mask = 0xffffffff;
  let rest = text.slice(r.end);
  if (rest[0] === '/') {
    const m = xtStrtouiEnd(rest.slice(1), 0, 0xffffffff);
    if (m === undefined) return bad();
    mask = m.value;
    rest = rest.slice(1 + m.end);
  }
  if (rest !== '')
    throw new ParamError(`${ext}: trailing garbage after value for option "--${optName}".\n`);
  return [r.value >>> 0, mask >>> 0];
}

export function printMark(mark: number, mask: number): string {
  return mask !== 0xffffffff ? ` ${hex32(mark)}/${hex32(mask)}` : ` ${hex32(mark)}`;
}

/** xtables_parse_interface() (the caller has checked emptiness where iptables does). */
export function parseInterface(arg: string, warn: (t: string) => void): string {
  if (arg.length + 1 > 16)
    throw new ParamError(`interface name \`${arg}' must be shorter than IFNAMSIZ (15)`);
  if (arg.length > 0 && !arg.endsWith('+') && /[/ ]/.test(arg))
    warn(
      `Warning: weird character in interface \`${arg}' ('/' and ' ' are not allowed by the kernel).\n`,
    );
  return arg;
}
