/** How long the Warden's lines take: the pace of the preparation, with and without a voice. */

/**
 * How long a line may take to be said before the script goes on without
 * waiting for the voice (a voice that never ends must not stop the
 * preparation): generous, 3 s plus 200 ms a character.
 */
export function speechAllowanceMs(text: string): number {
  return 3_000 + 200 * [...text].length;
}

/** Where the voice fails or is missing, how long a line stays up to be read: 1.5 s plus 80 ms a character. */
export function readingTimeMs(text: string): number {
  return 1_500 + 80 * [...text].length;
}
