/** The texts of the preparation (namespace `prep`) and of the Warden's eye, in both languages. */
export const texts = {
  en: {
    eye_asleep: "The Warden's eye, closed",
    eye_monitoring: "The Warden's eye, looking around",
    eye_capturing: "The Warden's eye, taking a picture",
    eye_attention: "The Warden's eye, staring at you",
    eye_dialogue: "The Warden's eye, talking to you",
  },
  ja: {
    eye_asleep: '看守の目（閉じている）',
    eye_monitoring: '看守の目（見回している）',
    eye_capturing: '看守の目（撮影中）',
    eye_attention: '看守の目（あなたを見つめている）',
    eye_dialogue: '看守の目（話しかけている）',
  },
} as const;
