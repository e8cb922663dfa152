import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../shared/constants.ts';

/** The interface language, guessed from the browser (SPEC §1); English by default. */
export function detectLanguage(languages: readonly string[] = navigator.languages): Language {
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    const match = LANGUAGES.find((language) => language === base);
    if (match !== undefined) return match;
  }
  return DEFAULT_LANGUAGE;
}

const messages = {
  en: {
    tagline: 'Book a work session, and Warden keeps you at it.',
    cameraCheckIntro:
      'During a session Warden watches through your camera. The video is analysed on this device: only events and an occasional small patrol snapshot are sent.',
    cameraCheckLink: 'Check your camera',
    loading: 'Loading…',
    home: 'Warden',
  },
  ja: {
    tagline: '作業の時間を予約すれば、Wardenが最後まで見守ります。',
    cameraCheckIntro:
      'セッション中、Wardenはカメラで見守ります。映像の解析はこの端末の中で行われ、送られるのはイベントと時々の小さな巡回画像だけです。',
    cameraCheckLink: 'カメラをチェックする',
    loading: '読み込み中…',
    home: 'Warden',
  },
} as const satisfies Record<Language, Record<string, string>>;

export type MessageKey = keyof (typeof messages)['en'];

/** Looks up a message of the shell in the given language. */
export function t(language: Language, key: MessageKey): string {
  return messages[language][key];
}
