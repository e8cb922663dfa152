/**
 * Speech for the browser tests, installed before the page loads (headless
 * Chromium has no voices and no speech recognition). `recordSpeech` replaces
 * `speechSynthesis` with one that records each line and ends it at once;
 * `fakeRecognition` replaces `SpeechRecognition` with one the test speaks
 * to with `hear`. The app's own speech code (app/speech.ts) runs unchanged.
 */
import { expect, type Page } from '@playwright/test';

export interface SpokenLine {
  text: string;
  lang: string;
}

/** The fake recognitions listening now, newest last (read by `hear`). */
interface FakeRecognitionWindow {
  spokenLines: SpokenLine[];
  listeningRecognitions: {
    onresult: ((event: { results: { transcript: string }[][] }) => void) | null;
    onend: (() => void) | null;
    stop(): void;
  }[];
}

/**
 * Replaces `speechSynthesis` with one that records what it is asked to say
 * (read with `spokenLines`). Each line ends at once, or with `endless` only
 * when cancelled, as a browser's voice does (an `interrupted` error).
 */
export async function recordSpeech(page: Page, { endless = false } = {}): Promise<void> {
  await page.addInitScript((linesNeverEnd) => {
    const spoken: { text: string; lang: string }[] = [];
    let saying: SpeechSynthesisUtterance[] = [];
    Object.defineProperty(window, 'spokenLines', { value: spoken });
    Object.defineProperty(window, 'speechSynthesis', {
      value: {
        speak(utterance: SpeechSynthesisUtterance) {
          spoken.push({ text: utterance.text, lang: utterance.lang });
          if (linesNeverEnd) saying.push(utterance);
          else setTimeout(() => utterance.onend?.(new Event('end') as SpeechSynthesisEvent), 0);
        },
        cancel() {
          for (const utterance of saying) utterance.onerror?.(new Event('error') as SpeechSynthesisErrorEvent);
          saying = [];
        },
      },
    });
  }, endless);
}

/** Every line said so far, in order. */
export function spokenLines(page: Page): Promise<SpokenLine[]> {
  return page.evaluate(() => (window as unknown as FakeRecognitionWindow).spokenLines);
}

/**
 * Installs a `SpeechRecognition` whose instances register themselves while
 * started and hear only what `hear` says; `abort()` (the app's timeout)
 * ends one without a result.
 */
export async function fakeRecognition(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Handlers = FakeRecognitionWindow['listeningRecognitions'][number];
    const listening: Handlers[] = [];
    Object.defineProperty(window, 'listeningRecognitions', { value: listening });
    class FakeSpeechRecognition implements Handlers {
      lang = '';
      interimResults = false;
      maxAlternatives = 1;
      onresult: Handlers['onresult'] = null;
      onerror: (() => void) | null = null;
      onend: Handlers['onend'] = null;
      start() {
        listening.push(this);
      }
      stop() {
        const index = listening.indexOf(this);
        if (index === -1) return;
        listening.splice(index, 1);
        setTimeout(() => this.onend?.(), 0);
      }
      abort() {
        this.stop();
      }
    }
    Object.defineProperty(window, 'SpeechRecognition', { value: FakeSpeechRecognition });
  });
}

/**
 * The guest says `text`: the newest listening recognition hears it (waiting
 * until one listens), then ends. A recognition the app no longer needs may
 * listen on until its timeout, so wait for what shows that the app listens
 * now (its prompt) before hearing.
 */
export async function hear(page: Page, text: string): Promise<void> {
  // Found and spoken to in one step: a recognition may end (the app's timeout) at any moment.
  const deliver = () =>
    page.evaluate((transcript) => {
      const recognition = (window as unknown as FakeRecognitionWindow).listeningRecognitions.at(-1);
      if (recognition === undefined) return false;
      recognition.onresult?.({ results: [[{ transcript }]] });
      recognition.stop();
      return true;
    }, text);
  await expect.poll(deliver, { message: `a recognition listening to hear "${text}"` }).toBe(true);
}

/** Waits until a recognition listens again: the app has dealt with what it heard before. */
export async function listeningAgain(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as FakeRecognitionWindow).listeningRecognitions.length), { message: 'a recognition listening again' })
    .toBeGreaterThan(0);
}
