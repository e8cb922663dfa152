import type { Language } from './constants.ts';

/**
 * Every text the server sends to a person, in both languages. English texts
 * are the product's own wording, kept verbatim. `{name}` marks a parameter.
 */
export const MESSAGES = {
  // --- The contract ---------------------------------------------------------
  invalid_request: {
    en: 'The request is invalid: {fields}.',
    ja: 'リクエストの内容が正しくありません: {fields}。',
  },
  unreadable_request: {
    en: 'The request could not be read.',
    ja: 'リクエストを読み取れませんでした。',
  },
  request_too_large: {
    en: 'The request is too large.',
    ja: 'リクエストが大きすぎます。',
  },
  server_error: {
    en: 'A server error occurred.',
    ja: 'サーバーエラーが発生しました。',
  },
  too_many_requests: {
    en: 'Too many attempts. Please wait a few minutes and try again.',
    ja: '試行回数が多すぎます。数分待ってから、もう一度お試しください。',
  },
  // --- Plans and card payment (docs/payments.md) --------------------------------
  // A declined payment is an answer with a decline code, worded by the app (docs/payments.md, Declines); this is for Stripe refusing a card before any payment.
  card_declined: {
    en: 'Your card was declined.',
    ja: 'カードが承認されませんでした。',
  },
  card_token_unknown: {
    en: 'This card could not be read. Please enter it again.',
    ja: 'このカードを読み取れませんでした。もう一度入力してください。',
  },
  card_on_file_missing: {
    en: 'There is no card on file to replace. Subscribe to a plan with a card first.',
    ja: '登録済みのカードがありません。先にカードでプランに登録してください。',
  },
  plan_ended: {
    en: 'Your plan has ended. Please choose a plan on the subscription page to book a jail.',
    ja: 'プランの期間が終了しました。ジェイルを予約するには、プランのページでプランを選んでください。',
  },
  plan_by_application: {
    en: 'The university and free plans are given on application: please write to us from the account menu.',
    ja: '学割プランと無料プランはお申し込みにより適用されます。アカウントメニューのお問い合わせからご連絡ください。',
  },
  plan_already_current: {
    en: 'You are already on this plan.',
    ja: 'すでにこのプランをご利用中です。',
  },
  plan_not_paid: {
    en: 'Only the light and standard plans can be unsubscribed.',
    ja: '登録を解除できるのはライトプランとスタンダードプランだけです。',
  },
  payment_not_found: {
    en: 'This payment was not found.',
    ja: 'この支払いは見つかりません。',
  },
  payment_provider_unavailable: {
    en: 'The card payment service could not be reached. Nothing was charged; please try again later.',
    ja: 'カード決済サービスに接続できませんでした。請求は行われていません。しばらくしてからもう一度お試しください。',
  },
  stripe_not_configured: {
    en: 'Card payment by Stripe is not set up on this server.',
    ja: 'このサーバーではStripeによるカード決済が設定されていません。',
  },
  stripe_event_unsigned: {
    en: 'The Stripe-Signature header does not sign this body.',
    ja: 'Stripe-Signatureヘッダーがこの本文の署名になっていません。',
  },
  stripe_event_invalid: {
    en: 'The body is not a Stripe event.',
    ja: '本文がStripeのイベントではありません。',
  },
  payment_provider_other: {
    en: 'This call belongs to the other card payment provider.',
    ja: 'この操作は現在のカード決済サービスでは使えません。',
  },

  // --- Field rules ------------------------------------------------------------
  title_invalid: {
    en: 'The username must be 1 to 50 characters and cannot contain @.',
    ja: 'ユーザー名は1〜50文字で、@を含めることはできません。',
  },
  email_invalid: {
    en: 'The e-mail address is not valid.',
    ja: 'メールアドレスが正しくありません。',
  },
  password_invalid: {
    en: 'The password must be 8 to 128 characters.',
    ja: 'パスワードは8〜128文字で入力してください。',
  },
  password_common: {
    en: 'This password is too easy to guess: it is one of the most used passwords, or made of your name or address. Choose another.',
    ja: 'このパスワードは推測されやすいため使えません(よく使われるパスワード、またはお名前やメールアドレスからなるもの)。別のパスワードにしてください。',
  },
  phone_invalid: {
    en: 'The phone number is not valid.',
    ja: '電話番号が正しくありません。',
  },

  // --- Accounts ---------------------------------------------------------------
  authentication_failed: {
    en: 'You are signed out. Please sign in again.',
    ja: 'ログインが切れました。もう一度ログインしてください。',
  },
  sign_in_failed: {
    en: 'The username or password is wrong.',
    ja: 'ユーザー名またはパスワードが違います。',
  },
  title_taken: {
    en: 'This username is already taken.',
    ja: 'このユーザー名はすでに使われています。',
  },
  email_taken: {
    en: 'This e-mail address is already registered.',
    ja: 'このメールアドレスはすでに登録されています。',
  },
  link_invalid: {
    en: 'This link is invalid or has expired.',
    ja: 'このリンクは無効か、有効期限が切れています。',
  },
  already_verified: {
    en: 'Your e-mail address is already verified.',
    ja: 'メールアドレスはすでに確認済みです。',
  },
  facilitator_not_allowed: {
    en: 'A facilitator cannot do this. Only the guest can change the e-mail address, password, phone number or payment, make or see the calendar address, webhook address or signing secret, see or sign out signed-in devices, and export or delete the account.',
    ja: 'ファシリテーターはこの操作をできません。メールアドレス・パスワード・電話番号・お支払いの変更、カレンダー用のアドレス・Webhookアドレス・署名シークレットの作成と表示、ログイン中の端末の表示とログアウト、アカウントの書き出しと削除は、ご本人だけが操作できます。',
  },
  // Asked before an e-mail change and before deleting the account.
  current_password_wrong: {
    en: 'The current password is wrong. Enter the password of your account.',
    ja: '現在のパスワードが違います。アカウントのパスワードを入力してください。',
  },
  facilitator_failed: {
    en: 'The facilitator link is invalid or has expired.',
    ja: 'ファシリテーター用のリンクが無効か、有効期限が切れています。',
  },
  warden_sign_in_failed: {
    en: 'The e-mail address or password is wrong.',
    ja: 'メールアドレスまたはパスワードが違います。',
  },
  warden_signed_out: {
    en: 'Your console session has ended. Please sign in again.',
    ja: 'コンソールのログインが切れました。もう一度ログインしてください。',
  },
  warden_disabled: {
    en: 'This console account is disabled. Ask the operator to enable it.',
    ja: 'このコンソールアカウントは無効になっています。有効にするよう運営者に依頼してください。',
  },
  warden_sign_in_expired: {
    en: 'This sign-in has expired. Please enter your e-mail address and password again.',
    ja: 'このログインの有効期限が切れました。もう一度メールアドレスとパスワードを入力してください。',
  },
  second_factor_code_wrong: {
    en: 'The code is wrong or has already been used. Enter the 6-digit code your authenticator app shows now.',
    ja: '確認コードが違うか、すでに使われています。認証アプリに今表示されている6桁のコードを入力してください。',
  },
  phone_code_wrong: {
    en: 'Your code is wrong',
    ja: '認証コードが違います',
  },
  phone_code_expired: {
    en: 'Your code has expired. Please request a new one.',
    ja: '認証コードの有効期限が切れました。新しいコードを請求してください。',
  },
  phone_code_limit: {
    en: 'Too many codes were sent to this number. Please wait 10 minutes.',
    ja: 'この番号への認証コードの送信回数が多すぎます。10分待ってから、もう一度お試しください。',
  },
  phone_code_wait: {
    en: 'A code was just sent to this number. Please wait a minute before asking for another.',
    ja: 'この番号には認証コードを送ったばかりです。次のコードは1分待ってから請求してください。',
  },

  // --- Booking gates (docs/api.md, /reservation/create) -------------------------
  unverified: {
    en: 'To book a jail session, please first verify your account from the link previously sent to your email address.',
    ja: 'ジェイルを予約するには、まずメールアドレスに送信されたリンクを開いて、メールアドレスの確認を済ませてください。',
  },
  suspended: {
    en: 'Your account is temporarily suspended because of three ignored jail within a week. Back to available at {resumeDateTime}',
    ja: '1週間以内に3回ジェイルを欠席したため、アカウントは一時的に停止されています。{resumeDateTime}から再びご利用いただけます。',
  },
  no_change_within_6_hours: {
    en: 'No change available within 6 hours.',
    ja: '開始6時間前からは変更できません。',
  },
  email_sent: {
    en: 'email sent.',
    ja: 'メールを送信しました。',
  },
  phone_required: {
    en: 'To book a jail session, please first register your phone number.',
    ja: 'ジェイルを予約するには、まず電話番号を登録してください。',
  },
  early_finish_blocked: {
    en: 'You ended a jail session early, so you can book again only after it was due to end: {endDateTime}.',
    ja: 'ジェイルを早めに終了したため、本来の終了時刻（{endDateTime}）を過ぎるまで新しい予約はできません。',
  },
  light_plan_limit: {
    en: 'The light plan allows {allowedHours} hours of jail a month. {month} has {remainingHours} hours left, and this booking needs {requestedHours}.',
    ja: 'ライトプランで予約できるのは月{allowedHours}時間までです。{month}の残りは{remainingHours}時間で、この予約には{requestedHours}時間が必要です。',
  },
  reservation_overlap: {
    en: 'This time overlaps your jail of {dateTime}.',
    ja: 'この時間は{dateTime}のジェイルと重なっています。',
  },

  // --- Reservations (docs/api.md, The booking rules) ----------------------------
  work_invalid: {
    en: 'The work must be at most 200 characters.',
    ja: '作業内容は200文字以内で入力してください。',
  },
  schedule_title_invalid: {
    en: 'Each schedule entry must be at most 100 characters.',
    ja: 'スケジュールの各項目は100文字以内で入力してください。',
  },
  duration_not_offered: {
    en: 'The duration must be 1 to 8 hours, in steps of 15 minutes.',
    ja: '時間は1〜8時間の範囲で、15分単位で選んでください。',
  },
  start_time_not_on_step: {
    en: 'The start time must be on a 15-minute step (:00, :15, :30 or :45).',
    ja: '開始時刻は15分単位（00分・15分・30分・45分）で選んでください。',
  },
  start_time_passed: {
    en: 'This start time has already passed.',
    ja: 'この開始時刻はすでに過ぎています。',
  },
  start_date_not_offered: {
    en: 'The start date must be today or one of the next 13 days.',
    ja: '開始日は今日から13日後までの中から選んでください。',
  },
  repeat_weekdays_invalid: {
    en: 'Choose at least one weekday, from Sunday to Saturday, for a daily repeat.',
    ja: '毎日の繰り返しには、日曜〜土曜の中から曜日を1つ以上選んでください。',
  },
  start_not_on_repeat_weekday: {
    en: 'The start date must fall on one of the weekdays chosen for the repeat.',
    ja: '開始日は、繰り返しに選んだ曜日のいずれかにしてください。',
  },
  schedule_minutes_not_offered: {
    en: 'Each schedule entry must be at a 5-minute step within the session.',
    ja: 'スケジュールの時間は、セッション内の5分単位で選んでください。',
  },
  // --- Forum and the incoming webhook (docs/forum.md, docs/webhook.md) ---------
  forum_text_empty: {
    en: 'Write a message before posting.',
    ja: 'メッセージを入力してから投稿してください。',
  },
  forum_text_too_long: {
    en: 'A message must be at most 1,000 characters.',
    ja: 'メッセージは1,000文字以内で入力してください。',
  },
  webhook_date_time_invalid: {
    en: 'Send the date as YYYY-MM-DD and the time as HH:mm, both or neither (neither books a jail starting now).',
    ja: '日付はYYYY-MM-DD、時刻はHH:mmの形式で、両方を送るか両方とも省略してください（省略すると今から始まるジェイルを予約します）。',
  },
  webhook_repeat_type_invalid: {
    en: 'The repeat type must be none, weekly or daily.',
    ja: '繰り返しはnone・weekly・dailyのいずれかにしてください。',
  },
  webhook_work_required: {
    en: 'Write the work of the jail (1 to 200 characters).',
    ja: 'ジェイルの作業内容を1〜200文字で入力してください。',
  },
  webhook_body_invalid: {
    en: 'The request must be a JSON object: {date, time, duration, repeatType, work}.',
    ja: 'リクエストはJSONオブジェクト {date, time, duration, repeatType, work} にしてください。',
  },

  reservation_not_found: {
    en: 'This reservation was not found.',
    ja: 'この予約は見つかりません。',
  },
  try_under_way: {
    en: 'A try-anyway jail is already under way. Try again once it has finished.',
    ja: 'お試しジェイルがすでに進行中です。終わってから、もう一度お試しください。',
  },
  feature_image_not_found: {
    en: 'This approved scene was not found.',
    ja: 'この承認済みのシーンは見つかりません。',
  },
  reservation_finished: {
    en: 'This reservation has already finished.',
    ja: 'この予約はすでに終了しています。',
  },
  skip_not_repeating: {
    en: 'Only a repeating reservation can be skipped.',
    ja: 'スキップできるのは繰り返しの予約だけです。',
  },

  // --- Pauses (docs/rules.md, Pauses) ---------------------------------------------
  pause_day_invalid: {
    en: 'Choose a date.',
    ja: '日付を選んでください。',
  },
  pause_last_day_before_first: {
    en: 'The last day must be on or after the first day.',
    ja: '最終日は開始日と同じ日か、それより後にしてください。',
  },
  pause_too_long: {
    en: 'A pause can last at most {days} days.',
    ja: 'お休みできるのは最長{days}日です。',
  },
  pause_too_far: {
    en: 'A pause must begin within {days} days.',
    ja: 'お休みは{days}日以内に始まるように設定してください。',
  },
  pause_overlap: {
    en: 'This pause overlaps another pause.',
    ja: 'このお休みは、ほかのお休みと重なっています。',
  },
  pause_limit: {
    en: 'You can have at most {count} pauses ahead.',
    ja: '予定できるお休みは{count}件までです。',
  },
  pause_not_found: {
    en: 'This pause was not found.',
    ja: 'このお休みは見つかりません。',
  },
  pause_not_changeable: {
    en: 'This pause ends within 6 hours; it can no longer be changed.',
    ja: 'このお休みは6時間以内に終わるため、変更できません。',
  },

  // --- The relay (docs/jail.md) -------------------------------------------------
  relay_invalid_event: {
    en: 'The event is invalid: {fields}.',
    ja: 'イベントの内容が正しくありません: {fields}。',
  },
  relay_not_your_guest: {
    en: 'This event names another guest.',
    ja: 'このイベントは別のゲストのものです。',
  },
  relay_sign_in_again: {
    en: 'Please sign in again to connect.',
    ja: '接続するには、もう一度ログインしてください。',
  },
  relay_wrong_origin: {
    en: 'Connections are accepted only from the Warden app itself.',
    ja: 'Wardenアプリ以外からの接続は受け付けていません。',
  },
  relay_too_many_events: {
    en: 'Too many events in a short time. Wait a few seconds, then try again.',
    ja: '短い時間に送られたイベントが多すぎます。数秒待ってから、もう一度お試しください。',
  },
  // The reason logged when a live jail is finished because its guest deletes the account.
  jail_finished_account_deleted: {
    en: 'The guest deleted the account.',
    ja: 'ゲストがアカウントを削除しました。',
  },
  no_live_jail: {
    en: 'No jail of yours is running now.',
    ja: '実行中のジェイルはありません。',
  },
  jail_not_live: {
    en: 'This jail is not running.',
    ja: 'このジェイルは実行中ではありません。',
  },
  patrol_not_jpeg: {
    en: 'A patrol image must be a JPEG image.',
    ja: '巡回画像はJPEG画像にしてください。',
  },
  patrol_too_large: {
    en: 'A patrol image must be at most 100 pixels on its long side and 24 KB.',
    ja: '巡回画像は長辺100ピクセル以下、24KB以下にしてください。',
  },
  patrol_limit_reached: {
    en: 'This jail already has its 30 patrol images.',
    ja: 'このジェイルの巡回画像はすでに上限の30枚に達しています。',
  },
  jail_logs_full: {
    en: "This jail's log is full ({max} entries, the most a jail keeps): nothing more can be added to it.",
    ja: 'このジェイルのログは上限の{max}件に達しているため、これ以上追加できません。',
  },
  jail_not_open: {
    en: 'Open this jail first.',
    ja: '先にこのジェイルを開いてください。',
  },
  patrol_log_unknown: {
    en: 'That patrol image is not in this jail.',
    ja: 'その巡回画像はこのジェイルのものではありません。',
  },
  webrtc_nobody_there: {
    en: 'Nobody is connected there to receive this.',
    ja: '受け取る相手が接続していません。',
  },

  // --- Messages sent by e-mail and SMS -----------------------------------------
  verify_email_subject: {
    en: 'Warden: please verify your e-mail address',
    ja: 'Warden: メールアドレスの確認',
  },
  verify_email_text: {
    en: 'Welcome to Warden, {title}.\n\nOpen this link within 24 hours to verify your e-mail address:\n{url}\n\nIf you did not sign up, ignore this mail.',
    ja: '{title}さん、Wardenへようこそ。\n\n24時間以内に次のリンクを開いて、メールアドレスの確認を完了してください。\n{url}\n\n心当たりのない場合は、このメールを破棄してください。',
  },
  reset_password_subject: {
    en: 'Warden: reset your password',
    ja: 'Warden: パスワードの再設定',
  },
  reset_password_text: {
    en: 'Open this link within an hour to set a new password for {title}:\n{url}\n\nIf you did not ask for this, ignore this mail; your password stays as it is.',
    ja: '1時間以内に次のリンクを開いて、{title}さんの新しいパスワードを設定してください。\n{url}\n\n心当たりのない場合は、このメールを破棄してください。パスワードは変更されません。',
  },
  confirm_email_subject: {
    en: 'Warden: confirm your new e-mail address',
    ja: 'Warden: 新しいメールアドレスの確認',
  },
  confirm_email_text: {
    en: 'You asked to make this the e-mail address of {title} on Warden. Open this link within 24 hours to confirm it:\n{url}\n\nUntil then the account keeps its current address. If you did not ask for this, ignore this mail; nothing changes.',
    ja: 'Wardenの{title}さんのメールアドレスを、このアドレスに変更するお手続きを受け付けました。24時間以内に次のリンクを開いて、変更を完了してください。\n{url}\n\n完了するまでは、現在のメールアドレスのままです。心当たりのない場合は、このメールを破棄してください。何も変更されません。',
  },
  email_changed_subject: {
    en: 'Warden: your e-mail address was changed',
    ja: 'Warden: メールアドレスが変更されました',
  },
  email_changed_text: {
    en: 'The e-mail address of {title} on Warden was changed from this address to {email}. Mail now goes there, and password reset links sent here no longer work.\n\nIf you did not do this, open this link within {days} days to take your account back: its address becomes this one again, every device is signed out, and you choose a new password.\n{url}',
    ja: 'Wardenの{title}さんのメールアドレスが、このアドレスから{email}に変更されました。今後のメールは新しいアドレスに届きます。このアドレスにお送りしたパスワード再設定のリンクは使えなくなりました。\n\n心当たりのない場合は、{days}日以内に次のリンクを開いて、アカウントを取り戻してください。メールアドレスがこのアドレスに戻り、すべての端末がログアウトします。そのうえで新しいパスワードを設定していただきます。\n{url}',
  },
  password_changed_subject: {
    en: 'Warden: your password was changed',
    ja: 'Warden: パスワードが変更されました',
  },
  password_changed_text: {
    en: 'The password of {title} on Warden was changed with a link mailed to this address, and every device was signed out.\n\nIf you did not do this, someone else can read the mail of this address. Change the password of this mailbox first, then set a new Warden password at {url} and write to us.',
    ja: 'Wardenの{title}さんのパスワードが、このアドレスにお送りしたリンクから変更されました。すべての端末はログアウトしました。\n\n心当たりのない場合は、第三者がこのアドレスのメールを読める状態にあります。まずこのメールアカウントのパスワードを変更し、{url} からWardenのパスワードを再設定したうえで、ご連絡ください。',
  },
  phone_code_sms: {
    en: 'Your Warden code is {code}. It is valid for 10 minutes.',
    ja: 'Wardenの認証コードは{code}です。有効期限は10分です。',
  },
  ignored_jail_subject: {
    en: 'Warden: you missed your jail',
    ja: 'Warden: ジェイルを欠席しました',
  },
  ignored_jail_text: {
    en: 'Your jail "{work}" from {start} ended without you.\n\nThis is ignored jail number {count} within a week. Three within a week suspend booking for a week.\n\nBook a time you can keep: {url}',
    ja: '{start}からのジェイル「{work}」は、参加のないまま終了しました。\n\n1週間以内の欠席は{count}回目です。1週間以内に3回欠席すると、1週間予約ができなくなります。\n\n参加できる時間で予約しましょう：{url}',
  },
  ignored_jail_text_no_work: {
    en: 'Your jail from {start} ended without you.\n\nThis is ignored jail number {count} within a week. Three within a week suspend booking for a week.\n\nBook a time you can keep: {url}',
    ja: '{start}からのジェイルは、参加のないまま終了しました。\n\n1週間以内の欠席は{count}回目です。1週間以内に3回欠席すると、1週間予約ができなくなります。\n\n参加できる時間で予約しましょう：{url}',
  },
  reminder_title: {
    en: 'Jail at {time}: {work}',
    ja: '{time}からのジェイル：{work}',
  },
  reminder_title_no_work: {
    en: 'Jail at {time}',
    ja: '{time}からのジェイル',
  },
  reminder_body_open: {
    en: 'You can enter it now. Tap to get ready.',
    ja: '今から入室できます。タップして準備しましょう。',
  },
  reminder_body_before: {
    en: 'It starts in {minutes} minutes. You can enter it from {opens}.',
    ja: 'あと{minutes}分で始まります。{opens}から入室できます。',
  },
  reminder_email_subject: {
    en: 'Warden: your jail at {time}',
    ja: 'Warden: {time}からのジェイル',
  },
  reminder_email_text: {
    en: 'Your jail "{work}" starts at {start}. You can enter it from {opens}:\n{url}\n\nTo change or stop these mails: {settingsUrl}',
    ja: '{start}からのジェイル「{work}」が始まります。{opens}から入室できます。\n{url}\n\nこのメールの設定の変更・停止：{settingsUrl}',
  },
  reminder_email_text_no_work: {
    en: 'Your jail starts at {start}. You can enter it from {opens}:\n{url}\n\nTo change or stop these mails: {settingsUrl}',
    ja: '{start}からのジェイルが始まります。{opens}から入室できます。\n{url}\n\nこのメールの設定の変更・停止：{settingsUrl}',
  },
  callup_sms: {
    en: 'Warden: {text}',
    ja: 'Warden: {text}',
  },
  callup_default: {
    en: 'Please come back to your work now.',
    ja: '今すぐ作業に戻ってください。',
  },
  // --- The calendar (docs/calendar.md) ------------------------------------------
  calendar_name: {
    en: 'Warden jails',
    ja: 'Warden のジェイル',
  },
  calendar_untitled_jail: {
    en: 'Jail',
    ja: 'ジェイル',
  },
  calendar_paused: {
    en: 'Warden: repeats paused',
    ja: 'Warden: 繰り返しはお休み中',
  },
  // --- Collaboration: the trigger (docs/collaboration.md) ----------------------
  push_endpoint_refused: {
    en: 'This browser cannot take reminders from Warden: its push address is not at the push service of Google, Mozilla, Microsoft or Apple.',
    ja: 'このブラウザではWardenのリマインダーを受け取れません。プッシュ通知の宛先が、Google・Mozilla・Microsoft・Appleのプッシュサービスではありません。',
  },
  push_devices_full: {
    en: 'Reminders are on in {max} browsers, the most Warden keeps. Remove one from the list of devices, then try again.',
    ja: 'リマインダーを受け取れるブラウザは{max}台までです。デバイスの一覧からどれかを削除してから、もう一度お試しください。',
  },
  push_device_not_proven: {
    en: 'This push address belongs to another account, and this browser did not prove it is the same browser. Turn reminders off in that account, then try again.',
    ja: 'このプッシュ通知の宛先は別のアカウントに登録されており、同じブラウザであることを確認できませんでした。そのアカウントでリマインダーをオフにしてから、もう一度お試しください。',
  },
  trigger_url_forbidden: {
    en: 'The trigger URL points into a private or reserved network; use an address on the internet.',
    ja: 'トリガーURLがプライベートまたは予約済みのネットワークを指しています。インターネット上のアドレスを指定してください。',
  },
  trigger_body_invalid: {
    en: 'The trigger body must be JSON once its placeholders are filled; use only {{work}}, {{date}}, {{time}}, {{duration}} and {{achievement}}.',
    ja: 'トリガーの本文は、プレースホルダーを埋めたあとに正しいJSONになるようにしてください。使えるのは {{work}}、{{date}}、{{time}}、{{duration}}、{{achievement}} だけです。',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof MESSAGES;

/** Whether `value` names a message. */
export function isMessageKey(value: string): value is MessageKey {
  return Object.hasOwn(MESSAGES, value);
}

/** The text of a message in a language, with `{name}` parameters filled in. */
export function message(language: Language, key: MessageKey, params: Readonly<Record<string, string | number>> = {}): string {
  return MESSAGES[key][language].replace(/\{(\w+)\}/g, (placeholder, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : placeholder));
}
