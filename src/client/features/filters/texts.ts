/** The approved scenes screen's texts (namespace `filters`, route /filters). */
export const texts = {
  en: {
    title: 'Approved scenes',
    intro:
      'A human warden approved these camera views during your jails. While you are in a jail, your device treats a view that matches one of them as normal, not as an alert.',
    empty: 'No approved scenes yet. A human warden can approve a scene from a patrol image during your jail.',
    list_label: 'Approved scenes',
    image_alt: 'Camera view approved on {{date}}',
    approved_on: 'Approved {{date}}',
    approved_by: 'by {{warden}}',
    remove: 'Remove',
    remove_label: 'Remove the scene approved on {{date}}',
    confirm: 'Remove this scene? Your device will treat this view as unusual again.',
    confirm_remove: 'Yes, remove it',
    cancel: 'Keep it',
    removed: 'The scene was removed.',
  },
  ja: {
    title: '承認済みのシーン',
    intro: 'ジェイル中に看守が承認したカメラの映像です。これらと一致する映像は、ジェイル中も通常の状態として扱われ、アラートになりません。',
    empty: '承認済みのシーンはまだありません。ジェイル中に看守が巡回画像からシーンを承認できます。',
    list_label: '承認済みのシーン',
    image_alt: '{{date}}に承認されたカメラの映像',
    approved_on: '{{date}}に承認',
    approved_by: '承認した看守：{{warden}}',
    remove: '削除',
    remove_label: '{{date}}に承認されたシーンを削除',
    confirm: 'このシーンを削除しますか？削除すると、この映像は再びアラートの対象になります。',
    confirm_remove: '削除する',
    cancel: '残す',
    removed: 'シーンを削除しました。',
  },
};
