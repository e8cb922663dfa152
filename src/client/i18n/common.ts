/**
 * The shell's texts (namespace `common`): layout, navigation, network
 * states, the placeholders. Every key in both languages; English texts keep
 * the product's wording verbatim.
 */
export const texts = {
  en: {
    brand: 'Warden',
    tagline: 'Book a work session, and the Warden keeps you at it.',
    cameraCheckIntro:
      'During a session the Warden watches through your camera. The video is analysed on this device: only events and an occasional small patrol snapshot are sent.',
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
    serverErrorOccurred: 'A server error occurred.',
    noInternet: 'No internet connection. Please check your network.',
    offline: 'You are offline. Some screens need the internet.',
    notFound: 'Page not found.',
    updateAvailable: 'A new version of Warden is available. Reload now?',
    renderError: 'Something went wrong on this screen.',
    reload: 'Reload',
    version: 'Version {{version}}',
  },
  ja: {
    brand: 'Warden',
    tagline: '作業の時間を予約すると、ワーデンが最後まで見守ります。',
    cameraCheckIntro:
      'ジェイル中は、ワーデンがカメラで見守ります。映像の解析はこの端末の中で行われ、送られるのはイベントと、ときどき撮る小さな巡回画像だけです。',
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
    serverErrorOccurred: 'サーバーエラーが発生しました',
    noInternet: 'インターネットに接続されていません。ネットワークを確認してください。',
    offline: 'オフラインです。一部の画面はインターネット接続が必要です。',
    notFound: 'ページが見つかりません。',
    updateAvailable: 'Wardenの新しいバージョンがあります。今すぐ再読み込みしますか？',
    renderError: 'この画面でエラーが発生しました。',
    reload: '再読み込み',
    version: 'バージョン {{version}}',
  },
} as const;
