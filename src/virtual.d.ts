/**
 * The landing's precomputed trace, computed by the engine when the app is built or served
 * (vite.config.ts, `landingTrace`; src/ui/landing-trace-build.ts).
 */
declare module 'virtual:cnisim-landing-trace' {
  const trace: import('./ui/landing-trace').LandingTrace;
  export default trace;
}
