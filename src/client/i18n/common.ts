/**
 * The shell's texts (namespace `common`): layout, navigation, network
 * states, the placeholders. Every key in both languages; English texts that
 * the spec gives are verbatim.
 */
export const texts = {
  en: {
    brand: 'Warden',
    tagline: 'Book a work session, and Warden keeps you at it.',
    cameraCheckIntro:
      'During a session Warden watches through your camera. The video is analysed on this device: only events and an occasional small patrol snapshot are sent.',
    cameraCheckLink: 'Check your camera',
    loading: 'Loading…',
    ok: 'OK',
    language: 'Language',
    languageNames: { en: 'English', ja: '日本語' },
    navigation: 'Main',
    navAdd: 'Add booking',
    navList: 'List',
    navAccount: 'Account',
    networkError: 'Error',
    unableToReachServer: 'Unable to reach server.',
    serverError: 'Server Error',
    noInternet: 'No internet connection. Please check your network.',
    offline: 'You are offline. Some screens need the internet.',
    comingSoon: 'This screen is coming soon.',
    notFound: 'Page not found.',
    updateAvailable: 'A new version of Warden is available. Reload now?',
    renderError: 'Something went wrong on this screen.',
    reload: 'Reload',
    version: 'Version {{version}}',
  },
  ja: {
    brand: 'Warden',
    tagline: '作業の時間を予約すれば、Wardenが最後まで見守ります。',
    cameraCheckIntro:
      'セッション中、Wardenはカメラで見守ります。映像の解析はこの端末の中で行われ、送られるのはイベントと時々の小さな巡回画像だけです。',
    cameraCheckLink: 'カメラをチェックする',
    loading: '読み込み中…',
    ok: 'OK',
    language: '言語',
    languageNames: { en: 'English', ja: '日本語' },
    navigation: 'メイン',
    navAdd: '予約を追加',
    navList: '一覧',
    navAccount: 'アカウント',
    networkError: 'エラー',
    unableToReachServer: 'サーバーに接続できません。',
    serverError: 'サーバーエラー',
    noInternet: 'インターネットに接続されていません。ネットワークを確認してください。',
    offline: 'オフラインです。インターネットが必要な画面があります。',
    comingSoon: 'この画面は準備中です。',
    notFound: 'ページが見つかりません。',
    updateAvailable: 'Wardenの新しいバージョンがあります。今すぐ再読み込みしますか？',
    renderError: 'この画面でエラーが発生しました。',
    reload: '再読み込み',
    version: 'バージョン {{version}}',
  },
} as const;
