/**
 * Try-anyway's texts (namespace `tryAnyway`, docs/try-anyway.md): the entry
 * on the empty reservation list and the waiting screen at /jail/live/try.
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
  },
  ja: {
    offer_title: '今すぐジェイルを試す',
    offer_text: '予約は不要です。取り組む作業と時間を決めれば、すぐにジェイルが始まります。',
    try_now: '今すぐ試す',
    work: '何に取り組みますか？',
    duration: '作業時間',
    start: 'ジェイルを始める',
    cancel: 'やめておく',
    waiting_title: 'ジェイルを準備しています',
    waiting: 'ジェイルを準備しています。まもなく始まります。',
    failed: 'ジェイルを開始できませんでした。',
    back: '予約一覧に戻る',
  },
};
