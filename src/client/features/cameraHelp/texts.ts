/** What the guest reads when the camera cannot be opened: the jail, the preparation and the camera check (docs/client.md, Failures the guest sees). */
export const texts = {
  en: {
    problem_blocked: 'The camera is blocked, so the Warden cannot see you.',
    problem_missing: 'No camera was found, so the Warden cannot see you.',
    problem_busy: 'Another app is using the camera, so the Warden cannot see you.',
    problem_other: 'The camera could not be opened, so the Warden cannot see you.',
    how_title: 'To let Warden use the camera',
    how_ios:
      'In Safari, tap the page menu (aA) in the address bar, then Website Settings › Camera › Allow. In another browser, open the Settings app, find the browser and turn on Camera.',
    how_android: 'Tap the icon to the left of the address, then Permissions › Camera › Allow.',
    how_firefox: 'Click the crossed-out camera icon in the address bar and remove the block.',
    how_safari: 'In the menu bar, choose Safari › Settings for This Website, then set Camera to Allow.',
    how_chromium: 'Click the camera icon or the icon to the left of the address in the address bar, and allow the camera for this site.',
    how_other: 'Open this site’s settings in your browser and allow the camera.',
    how_system:
      'If it stays blocked, your computer may block the browser: on a Mac, System Settings › Privacy & Security › Camera; on Windows, Settings › Privacy & security › Camera.',
    how_busy: 'Close the other app or tab that uses the camera.',
    how_missing: 'Connect a camera, or open Warden on a phone or tablet.',
    retry: 'Try the camera again',
  },
  ja: {
    problem_blocked: 'カメラがブロックされているため、ワーデンからあなたの姿が見えません。',
    problem_missing: 'カメラが見つからないため、ワーデンからあなたの姿が見えません。',
    problem_busy: '別のアプリがカメラを使っているため、ワーデンからあなたの姿が見えません。',
    problem_other: 'カメラを起動できなかったため、ワーデンからあなたの姿が見えません。',
    how_title: 'カメラを許可するには',
    how_ios:
      'Safariでは、アドレスバーのページメニュー（ぁあ）から「Webサイトの設定」›「カメラ」›「許可」を選んでください。ほかのブラウザでは、「設定」アプリでそのブラウザを開き、「カメラ」をオンにしてください。',
    how_android: 'アドレスの左にあるアイコンをタップし、「権限」›「カメラ」›「許可」を選んでください。',
    how_firefox: 'アドレスバーの斜線の入ったカメラのアイコンをクリックし、ブロックを解除してください。',
    how_safari: 'メニューバーの「Safari」›「このWebサイトの設定」で、「カメラ」を「許可」にしてください。',
    how_chromium: 'アドレスバーのカメラのアイコン、またはアドレスの左にあるアイコンをクリックし、このサイトのカメラを許可してください。',
    how_other: 'ブラウザでこのサイトの設定を開き、カメラを許可してください。',
    how_system:
      'それでもブロックされる場合は、パソコンがブラウザのカメラを止めている可能性があります。Macは「システム設定」›「プライバシーとセキュリティ」›「カメラ」、Windowsは「設定」›「プライバシーとセキュリティ」›「カメラ」で許可してください。',
    how_busy: 'カメラを使っている別のアプリやタブを閉じてください。',
    how_missing: 'カメラをつなぐか、スマートフォンやタブレットでWardenを開いてください。',
    retry: 'もう一度カメラを試す',
  },
} as const;
