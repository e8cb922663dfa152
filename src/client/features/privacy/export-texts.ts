/** The export's texts (namespace `privacy`), folded into texts.ts once the screen lands. */
export const EXPORT_TEXTS = {
  en: {
    export_heading: 'Download your data',
    export_intro: 'One ZIP file with everything Warden keeps about you:',
    export_account: 'your account, with your phone number, plan and sign-ins',
    export_jails: 'every jail you booked, with its report, alerts and logs',
    export_images: 'the patrol images still kept (those of the last {{days}} days) and your approved scenes, as image files',
    export_payments: 'your payments, forum posts and the error reports your devices sent',
    export_settings: 'your collaboration settings and trigger calls, reminder devices, and whether your calendar feed is on',
    export_format:
      'The data is in warden.json, which any program that reads JSON can open. Your password, keys and secret addresses are never in it. Keep the file somewhere safe: it holds your personal data.',
    export_button: 'Download my data',
    export_preparing: 'Preparing your file…',
    export_saved: 'Saved {{fileName}} to your downloads.',
  },
  ja: {
    export_heading: 'データのダウンロード',
    export_intro: 'Wardenが保存しているあなたのデータを、ひとつのZIPファイルにまとめてダウンロードできます。',
    export_account: 'アカウント情報（電話番号、プラン、サインインの記録を含む）',
    export_jails: '予約したすべてのジェイルと、そのレポート・アラート・ログ',
    export_images: 'まだ保存されている巡回画像（直近{{days}}日分）と承認済みのシーン（画像ファイル）',
    export_payments: 'お支払い、フォーラムへの投稿、端末から送られたエラーレポート',
    export_settings: '連携の設定とトリガーの呼び出し、リマインダーの端末、カレンダーフィードのオン・オフ',
    export_format:
      'データは warden.json に入っていて、JSONを読めるプログラムで開けます。パスワード、鍵、秘密のアドレスは含まれません。個人データが含まれるので、ファイルは安全な場所に保管してください。',
    export_button: 'データをダウンロード',
    export_preparing: 'ファイルを準備しています…',
    export_saved: '{{fileName}} をダウンロードフォルダに保存しました。',
  },
} as const;
