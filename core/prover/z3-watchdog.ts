/**
 * The wall-clock backstop around one solver check (z3.ts): Z3's resource limit bounds the work,
 * and this bounds the time when a check neither counts nor stops (some string and floating-point
 * queries), or when the scheduler takes the solver back.
 */

/** How often (ms) an interrupted check that has not stopped yet is interrupted again. */
const INTERRUPT_AGAIN_MS = 20;
/** How long an interrupted check may take to stop before its instance is given up. */
const STOP_GRACE_MS = 5000;

/**
 * Race a solver call against the backstop of `ms` (and `stop`); on timeout call `interrupt` until
 * the check stops ("interrupted"), or call `lost` and give up on it when it does not ("lost").
 */
export async function watchdog<R>(work: Promise<R>, ms: number, stop: Promise<void> | undefined, interrupt: () => void, lost: () => void): Promise<R | "interrupted" | "lost"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  const racers: Promise<R | "timeout">[] = [work, timeout];
  if (stop) racers.push(stop.then(() => "timeout" as const));
  const winner = await Promise.race(racers);
  clearTimeout(timer);
  if (winner !== "timeout") return winner;
  const ask = (): void => {
    try {
      interrupt();
    } catch {
      /* interrupt is best effort */
    }
  };
  ask();
  // An interrupt that arrives while the check is still starting on its thread is lost (the
  // check then ran its whole resource slice: seconds); asking again until it stops costs nothing.
  const again = setInterval(ask, INTERRUPT_AGAIN_MS);
  const stopped = await Promise.race([work.then(() => true, () => true), new Promise<boolean>((r) => setTimeout(() => r(false), STOP_GRACE_MS))]);
  clearInterval(again);
  if (!stopped) {
    lost();
    return "lost";
  }
  return "interrupted";
}
