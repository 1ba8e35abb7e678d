/** libxt_comment.c */
import { saveString, str } from '../common';
import type { Extension } from '../framework';

export const comment: Extension = {
  name: 'comment',
  kind: 'match',
  families: ['ipv4', 'ipv6'],
  xtopt: true,
  options: [{ name: 'comment', id: 0, hasArg: 1, mand: true }],
  init: () => ({ comment: '' }),
  parse: (_d, i) => ({ comment: (i.arg ?? '').slice(0, 255) }),
  save: (d) => ' --comment' + saveString(str(d, 'comment')),
  print: (d) => ` /* ${str(d, 'comment')} */`,
};
