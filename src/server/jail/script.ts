import type { Language } from '../../shared/constants.ts';

/**
 * What the virtual Warden says, as data: every line in both languages, the
 * names of the commands, and the patterns that recognise what a guest says.
 * The answers to commands and the finish are not here: the guest's device
 * says those itself (shared/device-lines.ts).
 * Lines are spoken by a speech synthesiser, so they are plain sentences.
 * `{name}` marks a placeholder that `responder.ts` fills; both languages of
 * a line use the same placeholders. A line that names the work has a
 * `_no_work` twin, said when the guest booked without naming one.
 */
export const WARDEN_LINES = {
  // --- The jail starts or the guest's device comes back ----------------------
  start_greeting: {
    en: 'Your jail starts now. Today your work is {work}.',
    ja: 'ジェイルを始めます。今日の作業は「{work}」です。',
  },
  start_greeting_no_work: {
    en: 'Your jail starts now. Let us get to work.',
    ja: 'ジェイルを始めます。さあ、作業に取りかかりましょう。',
  },
  start_until: {
    en: 'Stay with it until {endClock}. I am watching.',
    ja: '{endClock}まで集中して取り組みましょう。しっかり見守っていますよ。',
  },
  resume: {
    en: 'Welcome back. The jail is still on. Keep going with {work} until {endClock}.',
    ja: 'おかえりなさい。ジェイルは続いています。{endClock}まで「{work}」を続けましょう。',
  },
  resume_no_work: {
    en: 'Welcome back. The jail is still on. Keep going until {endClock}.',
    ja: 'おかえりなさい。ジェイルは続いています。{endClock}まで続けましょう。',
  },

  // --- Alerts -----------------------------------------------------------------
  alert_no_motion: {
    en: 'Are you there? I cannot see you moving. Show me that you are working.',
    ja: 'そこにいますか。動きが見えません。作業している姿を見せてください。',
  },
  alert_nodding: {
    en: 'Wake up. You are nodding off. Sit up straight and get back to work.',
    ja: '起きてください。うとうとしていますよ。姿勢を正して、作業に戻りましょう。',
  },
  alert_darkness: {
    en: 'It is too dark for me to see you. Please turn on the light.',
    ja: '暗くて姿が見えません。明かりをつけてください。',
  },
  alert_away: {
    en: 'Your seat is empty. Come back and get back to work.',
    ja: '席が空いていますね。戻ってきて、作業を再開してください。',
  },
  alert_leave_overrun: {
    en: 'Your {minutes} minutes out of your seat are over. Please come back now.',
    ja: '離席の{minutes}分が過ぎました。すぐに席に戻ってください。',
  },
  alert_break_overrun: {
    en: 'Your {minutes} minute break is over. Please come back and carry on.',
    ja: '{minutes}分の休憩時間が終わりました。席に戻って、作業を再開してください。',
  },
  alert_last_warning: {
    en: 'That is {alerts} alerts in {windowMinutes} minutes. One more and this jail ends.',
    ja: '{windowMinutes}分のあいだに警告が{alerts}回になりました。あと1回で、このジェイルは終了になります。',
  },

  // --- The camera sees the guest again after an away ---------------------------------
  back_greeting: {
    en: "Welcome back. Let's pick up where you left off.",
    ja: 'おかえりなさい。さっきの続きから始めましょう。',
  },

  // --- Answers to what the guest says -------------------------------------------
  said_time_left: {
    en: '{minutes} minutes left. The jail ends at {endClock}.',
    ja: '残りは{minutes}分です。{endClock}に終わります。',
  },
  said_time_left_one_minute: {
    en: 'One minute left. The jail ends at {endClock}.',
    ja: '残りは1分です。{endClock}に終わります。',
  },
  said_time_left_under_a_minute: {
    en: 'Less than a minute left. The jail ends at {endClock}.',
    ja: '残りは1分を切りました。{endClock}に終わります。',
  },
  said_commands: {
    en: 'Here are the commands you can use now.',
    ja: '今使えるコマンドをお伝えします。',
  },
  said_command_item: {
    en: 'Command {number}: {name}.',
    ja: 'コマンド{number}で、{name}ことができます。',
  },
  said_no_commands: {
    en: 'No commands are available right now.',
    ja: '今使えるコマンドはありません。',
  },
  said_greeting: {
    en: 'Hello. I am right here with you. Keep going with {work}.',
    ja: 'こんにちは。ちゃんと見守っていますよ。「{work}」を続けましょう。',
  },
  said_greeting_no_work: {
    en: 'Hello. I am right here with you. Keep going.',
    ja: 'こんにちは。ちゃんと見守っていますよ。このまま続けましょう。',
  },
  said_tired: {
    en: 'You have come this far. Take a deep breath and do a little more of {work}.',
    ja: 'ここまでよく頑張りましたね。深呼吸をして、もう少しだけ「{work}」を続けてみましょう。',
  },
  said_tired_no_work: {
    en: 'You have come this far. Take a deep breath and do a little more.',
    ja: 'ここまでよく頑張りましたね。深呼吸をして、もう少しだけ続けてみましょう。',
  },
  said_tired_way_out: {
    en: 'If you really must stop, you can finish early with command 3 and tell me why.',
    ja: 'どうしても続けられないときは、コマンド3で理由を伝えれば、早めに終了できます。',
  },
  said_thanks: {
    en: 'You are welcome. Now back to {work}.',
    ja: 'どういたしまして。では、「{work}」に戻りましょう。',
  },
  said_thanks_no_work: {
    en: 'You are welcome. Now back to work.',
    ja: 'どういたしまして。では、作業に戻りましょう。',
  },
  said_other: {
    en: 'I hear you. Let us get back to {work}.',
    ja: 'なるほど、わかりました。さあ、「{work}」に集中しましょう。',
  },
  said_other_no_work: {
    en: 'I hear you. Let us get back to it.',
    ja: 'なるほど、わかりました。さあ、作業に集中しましょう。',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type WardenLineKey = keyof typeof WARDEN_LINES;

/** The commands of a live session by number (docs/jail.md, Commands), as the Warden names them; the Japanese names are verbs, for 'コマンド1で、離席することができます'. */
export const COMMAND_NAMES: Readonly<Partial<Record<number, Record<Language, string>>>> = {
  1: { en: 'leave the seat', ja: '離席する' },
  2: { en: 'take a break', ja: '休憩する' },
  3: { en: 'finish early', ja: '早めに終了する' },
  4: { en: 'talk to the Warden', ja: 'ワーデンと話す' },
  5: { en: 'back to the seat', ja: '席に戻る' },
  6: { en: 'end the break', ja: '休憩を終える' },
};

/** What the Warden recognises in a guest's words, the first match winning. */
export const GUEST_INTENTS = ['time_left', 'commands', 'tired', 'thanks', 'greeting'] as const;
export type GuestIntent = (typeof GUEST_INTENTS)[number];

/**
 * The patterns of each intent. They are matched against the guest's words
 * after NFKC normalisation and lower-casing, so they are written in that
 * form: lower-case ASCII, full-width kana. Both languages' patterns are
 * tried whatever the guest's language, since people mix them.
 */
export const INTENT_PATTERNS: Record<GuestIntent, Record<Language, readonly RegExp[]>> = {
  time_left: {
    en: [
      /\bhow (much|many|long)\b.*\b(left|remain|remaining|to go)\b/,
      /\bhow long\b.*\b(until|till|before)\b/,
      /\b(time|minutes|hours) (left|remaining)\b/,
      /\bwhen\b.*\b(end|ends|finish|finishes|over|done)\b/,
      /\bwhat time\b.*\b(end|finish|over)\b/,
    ],
    ja: [
      /(あと|残り|のこり)(は)?(何|なん)(分|ぷん|時間|じかん)/,
      /(あと|残り|のこり)(は)?(どれ|どの)(くらい|ぐらい)/,
      /(残り|のこり)(の)?時間/,
      /(何時|なんじ|いつ)(に|まで|で)?(終わ|おわ)/,
      /(何時|なんじ)まで/,
    ],
  },
  commands: {
    en: [/\bcommands?\b/, /\bhelp\b/, /\bwhat can i (do|say)\b/, /\boptions\b/, /\bmenu\b/],
    ja: [/コマンド/, /ヘルプ/, /(何|なに)が(でき|言え|いえ)/, /使い方/, /メニュー/, /どうすれば/],
  },
  tired: {
    en: [
      /\btired\b/,
      /\bexhausted\b/,
      /\bsleepy\b/,
      /\bbored\b/,
      /\bwant to (stop|quit|give up|go home)\b/,
      /\bi (quit|give up)\b/,
      /\b(can['’]?t|can ?not) (focus|concentrate|go on|do (this|it))\b/,
    ],
    // 'お疲れさま' is a greeting, not tiredness: only the forms that say one is tired.
    ja: [/(疲|つか)れ(た|まし|て)/, /眠い/, /ねむい/, /やめたい/, /辞めたい/, /帰りたい/, /飽き/, /集中できな/, /しんどい/, /もう無理/, /限界/],
  },
  thanks: {
    en: [/\bthanks?\b/, /\bthx\b/, /\bappreciate\b/],
    ja: [/ありがと/, /有難/, /感謝/, /サンキュー/],
  },
  greeting: {
    en: [/\b(hello|hi|hey|hiya|howdy)\b/, /\bgood (morning|afternoon|evening)\b/],
    ja: [/こんにちは/, /こんばんは/, /おはよう/, /はじめまして/, /よろしく/, /もしもし/],
  },
};
