/**
 * Try-anyway's texts (namespace `tryAnyway`, docs/try-anyway.md): the entry
 * on the empty reservation list, the waiting screen at /jail/live/try, and
 * the three lines of the `#try` demo (`demo_line_1`..`3`, TRY_DEMO_LINES).
 */
export const texts = {
  en: {
    offer_title: 'Try a jail now',
    offer_text: 'No booking needed: say what you will work on and for how long, and your jail starts right away.',
    try_now: 'Try it now',
    work: 'What will you work on?',
    duration: 'How long (hours:minutes)',
    start: 'Start the jail',
    cancel: 'Not now',
    waiting_title: 'Getting your jail ready',
    waiting: 'Your jail is being prepared. It starts in a moment.',
    failed: 'The jail could not be started.',
    back: 'Back to the reservations',
    demo_line_1: 'Welcome to your first jail. I am the Warden, and I will keep an eye on you while you work.',
    demo_line_2: 'Keep your face and your desk in the camera view. If you need to leave your seat or take a break, use the commands.',
    demo_line_3: 'That is all. Let us begin.',
  },
  ja: {
    offer_title: '今すぐジェイルを試す',
    offer_text: '予約は不要です。取り組む作業と時間を決めれば、すぐにジェイルが始まります。',
    try_now: '今すぐ試す',
    work: '何に取り組みますか？',
    duration: '時間（時間:分）',
    start: 'ジェイルを始める',
    cancel: 'やめておく',
    waiting_title: 'ジェイルを準備しています',
    waiting: 'ジェイルを準備しています。まもなく始まります。',
    failed: 'ジェイルを開始できませんでした。',
    back: '予約一覧に戻る',
    demo_line_1: '初めてのジェイルへようこそ。私はWardenです。作業の間、あなたを見守ります。',
    demo_line_2: '顔と机がカメラに映るようにしてください。席を離れるときや休憩するときは、コマンドを使ってください。',
    demo_line_3: '以上です。それでは始めましょう。',
  },
};
