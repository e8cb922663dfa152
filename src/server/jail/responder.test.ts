import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Language } from '../../shared/constants.ts';
import { recogniseIntent, respond, type WardenMoment } from './responder.ts';
import { GUEST_INTENTS, WARDEN_LINES, type GuestIntent } from './script.ts';
import { ALERT_KINDS, FINISH_KINDS } from '../../shared/jail-vocabulary.ts';

// 2026-11-21 15:00 in Tokyo (06:00 UTC); the jail ends 95.5 minutes later, at 16:35.
const NOW = Date.UTC(2026, 10, 21, 6, 0, 0);
const END = NOW + 95.5 * 60_000;
const TOKYO = 'Asia/Tokyo';
const WORK = 'chapter two';

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

function said(text: string, language: Language, overrides: Partial<Extract<WardenMoment, { kind: 'guest_said' }>> = {}): string[] {
  return respond({ kind: 'guest_said', text, work: WORK, endTime: END, commands: [1, 2, 3, 4], ...overrides }, language, NOW, TOKYO);
}

describe('the script', () => {
  it.each(Object.entries(WARDEN_LINES))('%s is in both languages with the same placeholders', (key, texts) => {
    for (const language of LANGUAGES) {
      expect(texts[language].trim(), `${key}.${language}`).not.toBe('');
      expect(placeholders(texts[language]), `${key}.${language}`).toEqual(placeholders(texts.en));
    }
  });

  it('has a twin without the work for every line that names it', () => {
    for (const [key, texts] of Object.entries(WARDEN_LINES)) {
      const twin = Object.hasOwn(WARDEN_LINES, `${key}_no_work`);
      expect(twin, key).toBe(placeholders(texts.en).includes('work'));
      if (key.endsWith('_no_work')) expect(placeholders(texts.en), key).not.toContain('work');
    }
  });
});

describe('every moment', () => {
  const moments: WardenMoment[] = [
    { kind: 'start', work: WORK, endTime: END },
    { kind: 'resume', work: WORK, endTime: END },
    ...ALERT_KINDS.flatMap((alert) => [1, 3].map((alertsInWindow) => ({ kind: 'alert' as const, alert, alertsInWindow }))),
    { kind: 'status', from: 'injail', to: 'leaving' },
    { kind: 'status', from: 'injail', to: 'breaking' },
    { kind: 'status', from: 'leaving', to: 'injail' },
    { kind: 'status', from: 'breaking', to: 'injail' },
    { kind: 'back' },
    ...['how much time is left', 'help', 'hello', 'I am tired', 'thanks', 'the weather is nice'].map((text) => ({
      kind: 'guest_said' as const,
      text,
      work: WORK,
      endTime: END,
      commands: [1, 2, 3, 4],
    })),
    ...FINISH_KINDS.filter((finish) => finish !== 'ignored').map((finish) => ({ kind: 'finish' as const, finish, work: WORK })),
  ];

  it.each(LANGUAGES.flatMap((language) => moments.map((moment) => [language, JSON.stringify(moment), moment] as const)))(
    '%s %s: spoken lines without leftover placeholders',
    (language, _description, moment) => {
      const lines = respond(moment, language, NOW, TOKYO);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line.trim()).not.toBe('');
        expect(line).not.toMatch(/[{}]/);
      }
    },
  );
});

describe('a jail booked without a work', () => {
  it('never speaks an empty work: the lines that name it are said without it', () => {
    expect(respond({ kind: 'start', work: '', endTime: END }, 'en', NOW, TOKYO)[0]).toBe('Your jail starts now. Let us get to work.');
    expect(respond({ kind: 'resume', work: ' ', endTime: END }, 'ja', NOW, TOKYO)).toEqual(['おかえりなさい。ジェイルは続いています。16:35まで続けましょう。']);
    expect(respond({ kind: 'finish', finish: 'ended', work: '' }, 'en', NOW, TOKYO)).toEqual(['Time is up. Well done. This jail is over.']);
    for (const text of ['thanks', 'hello', 'I am so tired', 'what a day']) {
      for (const language of LANGUAGES) {
        const lines = respond({ kind: 'guest_said', text, work: '', endTime: END, commands: [1, 2, 3, 4] }, language, NOW, TOKYO);
        for (const line of lines) expect(line, text).not.toMatch(/「」|\s\.|of \.|to \.|with \./);
      }
    }
  });
});

describe('start and resume', () => {
  it('greets with the work and the end time in the guest zone', () => {
    expect(respond({ kind: 'start', work: WORK, endTime: END }, 'en', NOW, TOKYO)).toEqual([
      'Your jail starts now. Today your work is chapter two.',
      'Stay with it until 16:35. I am watching.',
    ]);
    expect(respond({ kind: 'start', work: '卒論', endTime: END }, 'ja', NOW, TOKYO)).toEqual([
      'ジェイルを始めます。今日の作業は「卒論」です。',
      '16:35まで集中して取り組みましょう。しっかり見守っていますよ。',
    ]);
  });

  it('reads the end time in a fixed-offset zone and on the hour', () => {
    const endOnTheHour = Date.UTC(2026, 10, 21, 12, 0);
    expect(respond({ kind: 'resume', work: WORK, endTime: endOnTheHour }, 'en', NOW, '-05:00')[0]).toContain('until 07:00.');
    expect(respond({ kind: 'resume', work: WORK, endTime: endOnTheHour }, 'ja', NOW, '+09:00')[0]).toContain('21:00まで');
    expect(respond({ kind: 'resume', work: WORK, endTime: endOnTheHour }, 'en', NOW, 'UTC')[0]).toContain('until 12:00.');
  });
});

describe('alerts', () => {
  it('gives each alert kind its own line, naming the allowance of an overrun', () => {
    for (const language of LANGUAGES) {
      const lines = ALERT_KINDS.map((alert) => respond({ kind: 'alert', alert, alertsInWindow: 1 }, language, NOW, TOKYO));
      for (const alertLines of lines) expect(alertLines).toHaveLength(1);
      expect(new Set(lines.map((alertLines) => alertLines[0])).size).toBe(ALERT_KINDS.length);
    }
    expect(respond({ kind: 'alert', alert: 'no_motion', alertsInWindow: 1 }, 'en', NOW, TOKYO)[0]).toMatch(/^Are you there\?/);
    expect(respond({ kind: 'alert', alert: 'nodding', alertsInWindow: 1 }, 'en', NOW, TOKYO)[0]).toMatch(/^Wake up\./);
    expect(respond({ kind: 'alert', alert: 'darkness', alertsInWindow: 1 }, 'ja', NOW, TOKYO)[0]).toContain('明かりをつけて');
    expect(respond({ kind: 'alert', alert: 'leave_overrun', alertsInWindow: 1 }, 'en', NOW, TOKYO)[0]).toContain('Your 5 minutes out of your seat');
    expect(respond({ kind: 'alert', alert: 'break_overrun', alertsInWindow: 2 }, 'ja', NOW, TOKYO)[0]).toContain('20分の休憩時間');
    expect(respond({ kind: 'alert', alert: 'away', alertsInWindow: 1 }, 'en', NOW, TOKYO)).toEqual(['Your seat is empty. Come back and get back to work.']);
    expect(respond({ kind: 'alert', alert: 'away', alertsInWindow: 1 }, 'ja', NOW, TOKYO)).toEqual([
      '席が空いていますね。戻ってきて、作業を再開してください。',
    ]);
  });

  it('greets the guest seen again after an away with a line of its own', () => {
    expect(respond({ kind: 'back' }, 'en', NOW, TOKYO)).toEqual(["Welcome back. Let's pick up where you left off."]);
    expect(respond({ kind: 'back' }, 'ja', NOW, TOKYO)).toEqual(['おかえりなさい。さっきの続きから始めましょう。']);
    expect(respond({ kind: 'back' }, 'en', NOW, TOKYO)).not.toEqual(respond({ kind: 'status', from: 'leaving', to: 'injail' }, 'en', NOW, TOKYO));
  });

  it('warns at the third alert in the window that one more ends the jail', () => {
    expect(respond({ kind: 'alert', alert: 'nodding', alertsInWindow: 2 }, 'en', NOW, TOKYO)).toHaveLength(1);
    expect(respond({ kind: 'alert', alert: 'nodding', alertsInWindow: 3 }, 'en', NOW, TOKYO)).toEqual([
      'Wake up. You are nodding off. Sit up straight and get back to work.',
      'That is 3 alerts in 20 minutes. One more and this jail ends.',
    ]);
    expect(respond({ kind: 'alert', alert: 'darkness', alertsInWindow: 3 }, 'ja', NOW, TOKYO)[1]).toBe(
      '20分のあいだに警告が3回になりました。あと1回で、このジェイルは終了になります。',
    );
  });
});

describe('status changes', () => {
  it('answers as the command that made the change (shared/device-lines.ts): the allowances named, the guest welcomed back', () => {
    expect(respond({ kind: 'status', from: 'injail', to: 'leaving' }, 'en', NOW, TOKYO)).toEqual(['All right. Please be back within 5 minutes.']);
    expect(respond({ kind: 'status', from: 'injail', to: 'breaking' }, 'ja', NOW, TOKYO)).toEqual([
      '20分の休憩です。ゆっくり休んで、時間どおりに戻ってきてください。',
    ]);
    expect(respond({ kind: 'status', from: 'leaving', to: 'injail' }, 'en', NOW, TOKYO)).toEqual(['Welcome back. Let us carry on.']);
    expect(respond({ kind: 'status', from: 'breaking', to: 'injail' }, 'ja', NOW, TOKYO)).toEqual(['休憩終了です。作業に戻りましょう。']);
    expect(respond({ kind: 'status', from: 'injail', to: 'injail' }, 'en', NOW, TOKYO)).toEqual([]);
  });
});

describe('what the guest says', () => {
  const phrasings: Record<GuestIntent, string[]> = {
    time_left: [
      'How much time is left?',
      'how many minutes left',
      'How long until the end?',
      'When does this end',
      'ＨＯＷ　ＭＵＣＨ　ＴＩＭＥ　ＩＳ　ＬＥＦＴ',
      'あと何分ですか',
      '残り時間は？',
      '何時に終わりますか',
      'あとどのくらい？',
      'あと何時間ありますか',
    ],
    commands: ['What are the commands?', 'help', 'What can I do?', 'ＨＥＬＰ', 'コマンドを教えて', 'ヘルプ', '何ができますか', 'ｺﾏﾝﾄﾞ'],
    tired: [
      "I'm tired",
      'I want to stop',
      'I can’t focus anymore',
      'so sleepy',
      'ＩＭ　ＴＩＲＥＤ',
      '疲れた',
      'もうやめたい',
      '眠いです',
      '集中できない',
      'つかれました',
    ],
    thanks: ['Thank you', 'thanks!', 'ＴＨＡＮＫＳ', 'ありがとうございます', 'どうもありがと', 'ｻﾝｷｭｰ'],
    greeting: ['Hello', 'hi there', 'Good morning', 'ＨＥＬＬＯ', 'こんにちは', 'おはようございます', 'こんばんは'],
  };

  it.each(GUEST_INTENTS.flatMap((intent) => phrasings[intent].map((text) => [intent, text] as const)))('recognises %s in "%s"', (intent, text) => {
    expect(recogniseIntent(text)).toBe(intent);
  });

  it.each(['The weather is nice', 'this is hard work', 'お疲れさまです', '今日は晴れですね', 'I think so'])('recognises nothing in "%s"', (text) => {
    expect(recogniseIntent(text)).toBeNull();
  });

  it('answers the whole minutes left and the end clock time', () => {
    expect(said('How much time is left?', 'en')).toEqual(['95 minutes left. The jail ends at 16:35.']);
    expect(said('あと何分？', 'ja')).toEqual(['残りは95分です。16:35に終わります。']);
    expect(said('ＨＯＷ　ＬＯＮＧ　ＵＮＴＩＬ　ＩＴ　ＥＮＤＳ', 'en', { endTime: NOW + 61_000 })).toEqual(['One minute left. The jail ends at 15:01.']);
    expect(said('残り時間は', 'ja', { endTime: NOW + 59_999 })).toEqual(['残りは1分を切りました。15:00に終わります。']);
    expect(said('time left?', 'en', { endTime: NOW - 5_000 })[0]).toMatch(/^Less than a minute left\./);
  });

  it('lists the available commands by number and name', () => {
    expect(said('What are the commands?', 'en', { commands: [5] })).toEqual(['Here are the commands you can use now.', 'Command 5: back to the seat.']);
    expect(said('コマンドは？', 'ja', { commands: [1, 2, 3, 4] })).toEqual([
      '今使えるコマンドをお伝えします。',
      'コマンド1で、離席することができます。',
      'コマンド2で、休憩することができます。',
      'コマンド3で、早めに終了することができます。',
      'コマンド4で、ワーデンと話すことができます。',
    ]);
    expect(said('help', 'en', { commands: [6] })[1]).toBe('Command 6: end the break.');
    expect(said('ヘルプ', 'ja', { commands: [5] })[1]).toBe('コマンド5で、席に戻ることができます。');
    expect(said('help', 'en', { commands: [] })).toEqual(['No commands are available right now.']);
  });

  it('encourages a tired guest and reminds them they can finish early with a reason', () => {
    expect(said('I want to quit', 'en')).toEqual([
      'You have come this far. Take a deep breath and do a little more of chapter two.',
      'If you really must stop, you can finish early with command 3 and tell me why.',
    ]);
    expect(said('もう疲れた', 'ja')[1]).toBe('どうしても続けられないときは、コマンド3で理由を伝えれば、早めに終了できます。');
  });

  it('answers thanks and greetings, and brings anything else back to the work', () => {
    expect(said('thanks', 'en')).toEqual(['You are welcome. Now back to chapter two.']);
    expect(said('こんにちは', 'ja', { work: '英語の勉強' })).toEqual(['こんにちは。ちゃんと見守っていますよ。「英語の勉強」を続けましょう。']);
    expect(said('The weather is nice', 'en')).toEqual(['I hear you. Let us get back to chapter two.']);
    expect(said('今日は晴れですね', 'ja', { work: '英語の勉強' })).toEqual(['なるほど、わかりました。さあ、「英語の勉強」に集中しましょう。']);
  });

  it('answers in the guest language whatever language they spoke', () => {
    expect(said('ありがとう', 'en')).toEqual(['You are welcome. Now back to chapter two.']);
  });
});

describe('finish', () => {
  it('closes with a line per finish kind', () => {
    expect(respond({ kind: 'finish', finish: 'ended', work: WORK }, 'en', NOW, TOKYO)).toEqual(['Time is up. Well done on chapter two. This jail is over.']);
    expect(respond({ kind: 'finish', finish: 'early', work: WORK }, 'en', NOW, TOKYO)[0]).toMatch(/^Noted\. This jail ends early\./);
    expect(respond({ kind: 'finish', finish: 'forced', work: WORK }, 'ja', NOW, TOKYO)[0]).toMatch(/^警告が多すぎたため/);
    expect(respond({ kind: 'finish', finish: 'warden', work: WORK }, 'en', NOW, TOKYO)).toEqual(['A human warden has ended this jail.']);
  });

  it('says nothing to a jail nobody came into', () => {
    for (const language of LANGUAGES) expect(respond({ kind: 'finish', finish: 'ignored', work: WORK }, language, NOW, TOKYO)).toEqual([]);
  });
});
