/** The forum screen's texts (namespace `forum`). */
export const texts = {
  en: {
    title: 'Forum',
    intro: 'Talk with the other guests: share how your jails go, ask and help.',
    messages: 'Messages',
    empty: 'No messages yet. Write the first one.',
    new_message: 'Your message',
    post: 'Post',
    faq: 'Questions? Read the rules',
    earlier: 'Show earlier messages',
    former_member: 'Former member',
  },
  ja: {
    title: 'フォーラム',
    intro: 'ほかのゲストと話しましょう。ジェイルの様子を伝えたり、質問したり、助け合ったりできます。',
    messages: 'メッセージ',
    empty: 'まだメッセージはありません。最初のメッセージを書きましょう。',
    new_message: 'あなたのメッセージ',
    post: '投稿する',
    faq: '質問がある方はルールをお読みください',
    earlier: '以前のメッセージを表示',
    former_member: '退会したメンバー',
  },
};
