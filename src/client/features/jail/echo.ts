import { normalise } from './commands.ts';

/** A heard utterance is the Warden's own voice when at least this share of it is in a line being said. */
const ECHO_SHARE = 0.6;

/** A line still counts as being said this long after it ends: a recognizer gives its result a moment late. */
export const ECHO_TAIL_MS = 1_000;

/**
 * What an utterance is made of for the comparison: its words, or, in
 * Japanese (written without spaces), its pairs of characters.
 */
function pieces(text: string): string[] {
  const said = normalise(text);
  if (/^[a-z0-9' ]*$/.test(said)) return said.split(' ').filter((word) => word !== '');
  const characters = [...said.replaceAll(' ', '')];
  if (characters.length < 2) return characters;
  return characters.slice(1).map((character, index) => `${characters[index]}${character}`);
}

/**
 * Whether `heard` is the Warden's own voice through the microphone: most of
 * it is in one of the `lines` being said. A misheard echo still counts ("all
 * right we back within five minutes"), while the guest speaking over the
 * Warden is heard ("I'm back" during "All right. Please be back within 5
 * minutes.": only "back" is in the line).
 */
export function isEcho(heard: string, lines: readonly string[]): boolean {
  const said = pieces(heard);
  if (said.length === 0) return false;
  return lines.some((line) => {
    const inLine = new Set(pieces(line));
    return said.filter((piece) => inLine.has(piece)).length / said.length >= ECHO_SHARE;
  });
}
