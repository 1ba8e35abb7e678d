/**
 * goMatchString: Go's regexp.MatchString for allow-list patterns. Error texts are regexp/syntax's
 * (ErrMissingParen, ErrUnexpectedParen, ErrMissingBracket, ErrMissingRepeatArgument,
 * ErrInvalidRepeatOp, ErrInvalidEscape, ErrInvalidPerlOp, ErrInvalidNamedCapture).
 */
import { describe, expect, it } from 'vitest';
import { goMatchString } from './goregexp';

describe('goMatchString', () => {
  it('matches anywhere unless anchored, with leading flags and P-named groups', () => {
    expect(goMatchString('conf\\.all', 'net.ipv4.conf.all.forwarding')).toEqual({ match: true });
    expect(goMatchString('^conf\\.all', 'net.ipv4.conf.all.forwarding')).toEqual({ match: false });
    expect(goMatchString('(?i)^NET\\.', 'net.core.somaxconn')).toEqual({ match: true });
    expect(goMatchString('^net\\.(?P<f>ipv[46])\\.', 'net.ipv6.conf')).toEqual({ match: true });
    expect(goMatchString('^net\\.core\\.[a-z_]*?$', 'net.core.somaxconn')).toEqual({ match: true });
  });

  it.each([
    ['(net', 'missing closing ): `(net`'],
    ['net)', 'unexpected ): `net)`'],
    ['^net\\.[a-z', 'missing closing ]: `[a-z`'],
    ['*net', 'missing argument to repetition operator: `*`'],
    ['net**', 'invalid nested repetition operator: `**`'],
    ['(a)\\1', 'invalid escape sequence: `\\1`'],
    ['net(?!\\.core)', 'invalid or unsupported Perl syntax: `(?!`'],
    ['(?<=net)x', 'invalid named capture: `(?<=net)x`'],
  ])('refuses %s as RE2 does', (pattern, msg) => {
    expect(goMatchString(pattern, 'net.core.somaxconn')).toEqual({
      error: `error parsing regexp: ${msg}`,
    });
  });
});
