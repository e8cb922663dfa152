/** The texts of the jail screens (namespace `jail`), in both languages. */
export const texts = {
  en: {
    prep_before_title: 'Before your jail',
    prep_before_intro: 'In a moment the Warden will walk you through the setup. It takes about three minutes.',
    prep_before_audio_title: 'Sound',
    prep_before_audio: 'The Warden speaks to you, with subtitles. Turn the sound on and the volume up. Where your browser can hear you, you may answer by voice; touching the buttons always works too.',
    prep_before_camera_title: 'Camera',
    prep_before_camera:
      'Your camera watches you during the jail. The picture is analysed on this device and never leaves it: only events (motion, darkness, nodding) and a few small patrol images are sent. When your browser asks, allow the camera and the microphone.',
    prep_before_start: 'Start',
    here_we_go: 'Here we go',
  },
  ja: {
    prep_before_title: 'ジェイルの前に',
    prep_before_intro: 'これから看守がセットアップを案内します。3分ほどかかります。',
    prep_before_audio_title: '音声',
    prep_before_audio:
      '看守が字幕付きで話しかけます。音を出して、音量を上げてください。ブラウザが対応していれば声で答えられます。ボタンをタッチしても操作できます。',
    prep_before_camera_title: 'カメラ',
    prep_before_camera:
      'ジェイルの間、カメラがあなたを見守ります。映像はこの端末の中で解析され、外には出ません。送られるのは動き・暗さ・居眠りなどのイベントと、数枚の小さな巡回画像だけです。ブラウザに聞かれたら、カメラとマイクを許可してください。',
    prep_before_start: 'スタート',
    here_we_go: 'さあ、始めましょう',
  },
} as const;
