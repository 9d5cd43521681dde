// A hook for end-to-end tests, loaded into a server process with `--import` (ServerProcess, option
// `movableClock`): each SIGUSR2 moves the process's `Date.now()` (the server's clock, `SYSTEM_CLOCK`)
// forward by E2E_CLOCK_STEP_MS and says so on stderr, so a test sees a server-side delay pass (such
// as LINK_CHECK_CONFIRM) without waiting for it. Real timers are untouched. Never loaded outside tests.
const step = Number(process.env['E2E_CLOCK_STEP_MS']);
if (!Number.isFinite(step) || step <= 0)
  throw new Error('movable-clock: E2E_CLOCK_STEP_MS must be a positive number');
const realNow = Date.now.bind(Date);
let offset = 0;
Date.now = () => realNow() + offset;
process.on('SIGUSR2', () => {
  offset += step;
  process.stderr.write(`movable-clock: moved to +${offset} ms\n`);
});
