/**
 * Whether a stream gets ANSI colours: `FORCE_COLOR` decides when set (`0` or `false` turn colour
 * off, any other value on), else a non-empty `NO_COLOR` turns it off (no-color.org), else colour
 * only on a terminal. Node's own `tty.getColorDepth()` gives the two variables the same precedence.
 */
export function colourWanted(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !(force === "0" || force.toLowerCase() === "false");
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return isTTY;
}

/** Text without ANSI colour sequences. */
export function uncoloured(text: string): string {
  return text.replace(/\x1b\[[0-9;]*m/g, "");
}
