import type { Language } from '../../shared/constants.ts';

/** Speech recognition gives up after 2.5 s. */
export const SPEECH_TIMEOUT_MS = 2_500;
/** What the guest said stays on screen for 1.5 s. */
export const GUEST_SPEECH_SHOWN_MS = 1_500;

/**
 * Speech behind an interface (the Warden's voice and the guest's spoken
 * commands): the browser's `speechSynthesis` and `SpeechRecognition` in the
 * app, a scripted stand-in where they cannot run (headless browsers in
 * tests). Touch always works as well; nothing waits on speech forever.
 */

export interface Voice {
  /**
   * Speaks `text`; resolves when it has been said, with whether it was: false
   * at once where there is no voice or the voice fails, so that the caller
   * can give the line its reading time instead.
   */
  speak(text: string, language: Language): Promise<boolean>;
  /** Stops whatever is being said. */
  cancel(): void;
}

export interface Ears {
  /** Whether this browser can listen: false without recognition, and from the first refusal (no microphone, not allowed) on. */
  readonly available: boolean;
  /** What the guest says within `timeoutMs` (2.5 s by default), or null. */
  listen(language: Language, timeoutMs?: number): Promise<string | null>;
}

const LOCALES: Record<Language, string> = { en: 'en-US', ja: 'ja-JP' };

/** The browser's voice; resolves at the end of each line, or at once without speech synthesis. */
export function browserVoice(): Voice {
  const synthesis = typeof window !== 'undefined' && 'speechSynthesis' in window ? window.speechSynthesis : null;
  return {
    speak(text, language) {
      if (synthesis === null) return Promise.resolve(false);
      return new Promise((resolve) => {
        try {
          const utterance = new SpeechSynthesisUtterance(text);
          utterance.lang = LOCALES[language];
          utterance.onend = () => resolve(true);
          utterance.onerror = () => resolve(false);
          synthesis.speak(utterance);
        } catch {
          resolve(false);
        }
      });
    },
    cancel() {
      synthesis?.cancel();
    },
  };
}

/** The parts of the Web Speech API's recognition this app uses (TypeScript's DOM types do not have it). */
interface Recognition {
  lang: string;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  abort(): void;
}

type RecognitionConstructor = new () => Recognition;

function recognitionConstructor(): RecognitionConstructor | null {
  if (typeof window === 'undefined') return null;
  const candidates = window as unknown as { SpeechRecognition?: RecognitionConstructor; webkitSpeechRecognition?: RecognitionConstructor };
  return candidates.SpeechRecognition ?? candidates.webkitSpeechRecognition ?? null;
}

/** Recognition errors after which listening again cannot work on this page (no microphone, permission refused, no service). */
const REFUSALS = new Set(['not-allowed', 'service-not-allowed', 'audio-capture', 'language-not-supported']);

/** The browser's speech recognition, where present: one utterance per `listen`. */
export function browserEars(): Ears {
  const Recognition = recognitionConstructor();
  let refused = false;
  return {
    get available() {
      return Recognition !== null && !refused;
    },
    listen(language, timeoutMs = SPEECH_TIMEOUT_MS) {
      if (Recognition === null || refused) return Promise.resolve(null);
      return new Promise((resolve) => {
        const recognition = new Recognition();
        recognition.lang = LOCALES[language];
        recognition.interimResults = false;
        recognition.maxAlternatives = 1;
        let heard: string | null = null;
        const timer = setTimeout(() => recognition.abort(), timeoutMs);
        recognition.onresult = (event) => {
          heard = event.results[0]?.[0]?.transcript ?? null;
        };
        recognition.onerror = (event) => {
          if (REFUSALS.has(event.error)) refused = true;
        };
        recognition.onend = () => {
          clearTimeout(timer);
          resolve(heard);
        };
        try {
          recognition.start();
        } catch {
          clearTimeout(timer);
          resolve(null);
        }
      });
    },
  };
}
