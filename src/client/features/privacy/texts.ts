/** The texts of "Your data" (/guest/data) and of the page after an account was deleted (/guest/deleted); namespace `privacy`. */
export const texts = {
  en: {
    heading: 'Your data',
    privacy_link: 'Privacy: what Warden keeps about you, for how long and why',

    export_heading: 'Download your data',
    export_intro: 'One ZIP file with everything Warden keeps about you:',
    export_account: 'your account, with your phone number, plan and sign-ins',
    export_jails: 'every jail you booked, with its report, alerts and logs',
    export_images: 'the patrol images still kept (those of the last {{days}} days) and your approved scenes, as image files',
    export_payments: 'your payments, forum posts and the error reports your devices sent',
    export_settings:
      'your collaboration settings and trigger calls, your reminder devices and the reminders sent, whether your calendar feed is on, and the links that let a facilitator sign in as you',
    export_format:
      'The data is in warden.json, which any program that reads JSON can open. Your password, keys and secret addresses are never in it. Keep the file somewhere safe: it holds your personal data.',
    export_button: 'Download my data',
    export_preparing: 'Preparing your file…',
    export_saved: 'Saved {{fileName}} to your downloads.',
    export_facilitator: 'You are signed in as a facilitator. Only the guest can download the account’s data.',

    delete_heading: 'Delete your account',
    delete_intro: 'Deleting your account cannot be undone. This is what happens:',
    delete_jail: 'A jail running now is finished first.',
    delete_everything:
      'Your account and everything in it are deleted: bookings, reports and patrol images, approved scenes, settings, reminders and devices. You are signed out on every device.',
    delete_plan: 'A paid plan is cancelled at the card payment service, and nothing more is charged.',
    delete_payments: 'Records of your payments are kept for bookkeeping, without your name or account.',
    delete_forum: 'Your forum posts stay, shown as “Former member”. Copies already sent to the chat workspace cannot be recalled.',
    delete_again:
      'You can sign up again with the same e-mail address. A suspension or booking block still running comes back with it, and there is no new trial.',
    delete_password: 'Your password',
    delete_submit: 'Delete my account',
    delete_facilitator: 'You are signed in as a facilitator. Only the guest can delete the account.',
    confirm_title: 'Delete your account?',
    confirm_text: 'Your account and its data are deleted now, and you are signed out. This cannot be undone.',
    confirm_delete: 'Delete for good',
    confirm_keep: 'Keep my account',
    close: 'Close',

    deleted_heading: 'Your account is deleted',
    deleted_text: 'Your account and its data have been deleted, and you are signed out on every device. Thank you for using Warden.',
    deleted_intro: 'Back to the introduction',
  },
  ja: {
    heading: 'あなたのデータ',
    privacy_link: 'プライバシー：Wardenが保存するデータ、その期間と理由',

    export_heading: 'データのダウンロード',
    export_intro: 'Wardenが保存しているあなたのデータを、ひとつのZIPファイルにまとめてダウンロードできます。',
    export_account: 'アカウント情報（電話番号、プラン、ログインの記録を含む）',
    export_jails: '予約したすべてのジェイルと、そのレポート・アラート・ログ',
    export_images: 'まだ保存されている巡回画像（直近{{days}}日分）と承認済みのシーン（画像ファイル）',
    export_payments: 'お支払い、フォーラムへの投稿、端末から送られたエラーレポート',
    export_settings:
      '連携の設定とトリガーの呼び出し、リマインダーの端末と送ったリマインダー、カレンダーフィードのオン・オフ、ファシリテーターがログインするためのリンク',
    export_format:
      'データは warden.json に入っていて、JSONを読めるプログラムで開けます。パスワード、鍵、秘密のアドレスは含まれません。個人データが含まれるので、ファイルは安全な場所に保管してください。',
    export_button: 'データをダウンロード',
    export_preparing: 'ファイルを準備しています…',
    export_saved: '{{fileName}} をダウンロードフォルダに保存しました。',
    export_facilitator: 'ファシリテーターとしてログインしています。アカウントのデータをダウンロードできるのはご本人だけです。',

    delete_heading: 'アカウントの削除',
    delete_intro: 'アカウントを削除すると、元に戻せません。削除すると次のようになります。',
    delete_jail: '実行中のジェイルがあれば、先に終了します。',
    delete_everything:
      'アカウントと、予約・レポート・巡回画像・承認済みのシーン・設定・リマインダー・端末など、アカウントのデータをすべて削除します。すべての端末でログアウトします。',
    delete_plan: '有料プランはカード決済サービスで登録を解除し、以後の請求はありません。',
    delete_payments: 'お支払いの記録は、経理のため、お名前やアカウントと結びつけずに保管します。',
    delete_forum: 'フォーラムの投稿は「退会したメンバー」の投稿として残ります。チャットワークスペースにすでに送られた投稿は取り消せません。',
    delete_again: '同じメールアドレスで再登録できます。ただし、期間中の利用停止や予約の制限は引き継がれ、トライアルは新しくなりません。',
    delete_password: 'パスワード',
    delete_submit: 'アカウントを削除する',
    delete_facilitator: 'ファシリテーターとしてログインしています。アカウントを削除できるのはご本人だけです。',
    confirm_title: 'アカウントを削除しますか？',
    confirm_text: 'アカウントとデータを今すぐ削除し、ログアウトします。元に戻すことはできません。',
    confirm_delete: '削除する',
    confirm_keep: '削除しない',
    close: '閉じる',

    deleted_heading: 'アカウントを削除しました',
    deleted_text: 'アカウントとデータを削除し、すべての端末でログアウトしました。Wardenをご利用いただき、ありがとうございました。',
    deleted_intro: 'はじめの画面へ',
  },
};
