/**
 * How the tests, the benchmarks and the screenshot script launch Chromium: Debian's system
 * binary (Playwright never downloads a browser here), or the one CHROMIUM_PATH names, with the
 * background services that would add noise or network traffic turned off.
 */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * For tests where a public docs site (docs.test) frames the local preview server: Chromium
 * refuses to let a public site frame a local address, a check a real docs site framing a public
 * cnisim never meets, so it is off there.
 */
export const FRAMED_BY_A_PUBLIC_SITE = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks'],
};
