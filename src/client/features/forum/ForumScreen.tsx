import BookOpen from 'lucide-react/icons/book-open';
import History from 'lucide-react/icons/history';
import Send from 'lucide-react/icons/send';
import { Button } from '../../ui/Button.tsx';
import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldErrors } from '../../app/fieldErrors.ts';
import { RouterLink } from '../../app/RouterLink.tsx';
import { TextAreaField } from '../../ui/Field.tsx';
import { FORUM_TEXT_MAX_LENGTH, type ForumMessage } from '../../../shared/api/forum.ts';
import { useAppSelector } from '../../app/hooks.ts';
import { formatDateTime, systemTimeZone } from '../../../shared/time-zone.ts';
import { useTimeZone } from '../reservations/common.ts';
import { useForumCreateMutation, useForumReadQuery, useLazyForumReadEarlierQuery } from './api.ts';
import './forum.css';

/**
 * /userForum (docs/forum.md): the latest messages, scrolled to the newest, a
 * text area and a post button (a blank text is not posted), and a link to
 * the rules, which answer the common questions. Texts are shown as text:
 * React escapes them, so markup a guest writes stays visible as written.
 */
export function ForumScreen() {
  const { t } = useTranslation('forum');
  const language = useAppSelector((state) => state.application.language);
  const { data } = useForumReadQuery();
  const [create, { isLoading: posting }] = useForumCreateMutation();
  const [text, setText] = useState('');
  const form = useFieldErrors<'text'>({ forum_text_empty: 'text', forum_text_too_long: 'text' });
  const listRef = useRef<HTMLOListElement>(null);
  const [readEarlier, { isFetching: readingEarlier }] = useLazyForumReadEarlierQuery();
  /** Older pages shown with 'Show earlier messages', oldest first, and whether more remain. */
  const [earlier, setEarlier] = useState<{ messages: ForumMessage[]; hasEarlier: boolean } | null>(null);
  /** The list's height before a page was put on top, to keep the messages in view where they were. */
  const heightBefore = useRef<number | null>(null);
  const messages = [...(earlier?.messages ?? []), ...(data?.messages ?? [])];
  const hasEarlier = earlier?.hasEarlier ?? data?.hasEarlier ?? false;
  const newestId = messages.at(-1)?.id;
  const oldest = messages[0];

  // On load and after each new message, show the newest.
  useEffect(() => {
    const list = listRef.current;
    if (list !== null) list.scrollTop = list.scrollHeight;
  }, [newestId]);

  useLayoutEffect(() => {
    const list = listRef.current;
    if (list === null || heightBefore.current === null) return;
    list.scrollTop += list.scrollHeight - heightBefore.current;
    heightBefore.current = null;
  }, [earlier]);

  const showEarlier = () => {
    if (oldest === undefined) return;
    readEarlier({ id: oldest.id, createdAt: oldest.createdAt })
      .unwrap()
      .then((page) => {
        heightBefore.current = listRef.current?.scrollHeight ?? null;
        setEarlier((shown) => ({ messages: [...page.messages, ...(shown?.messages ?? [])], hasEarlier: page.hasEarlier }));
      })
      // The failure is shown by the network banner.
      .catch(() => undefined);
  };

  const timeZone = useTimeZone();
  const readerTimeZone = systemTimeZone();
  const canPost = text.trim() !== '' && !posting;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!canPost) return;
    // A refusal is said beside the text, which stays for another try.
    if (form.succeeded(await create({ text }))) setText('');
  };

  return (
    <section className="screen forum-screen" aria-labelledby="forum-title">
      <h1 id="forum-title">{t('title')}</h1>
      <p>{t('intro')}</p>
      <p className="forum-faq">
        <BookOpen aria-hidden="true" focusable="false" size={18} />
        <RouterLink to="/rules">{t('faq')}</RouterLink>
      </p>
      {data !== undefined && messages.length === 0 ? <p>{t('empty')}</p> : null}
      {hasEarlier ? (
        <Button variant="ghost" icon={History} className="forum-earlier" onClick={showEarlier} disabled={readingEarlier}>
          {t('earlier')}
        </Button>
      ) : null}
      {/* Focusable, so that the list can be scrolled from the keyboard. */}
      <ol className="forum-messages" ref={listRef} aria-label={t('messages')} tabIndex={0}>
        {messages.map((message) => (
          <li key={message.id} className="forum-message">
            <p className="forum-meta">
              {/* A post of a deleted account keeps no name (docs/forum.md). */}
              {message.username === '' ? (
                <span className="forum-username forum-former">{t('former_member')}</span>
              ) : (
                <span className="forum-username">{message.username}</span>
              )}{' '}
              <time dateTime={new Date(message.createdAt).toISOString()}>{formatDateTime(message.createdAt, timeZone, language, readerTimeZone)}</time>
            </p>
            <p className="forum-text">{message.text}</p>
          </li>
        ))}
      </ol>
      <form className="forum-form" onSubmit={submit}>
        <TextAreaField label={t('new_message')} value={text} maxLength={FORUM_TEXT_MAX_LENGTH} rows={3} error={form.errors.text} onValueChange={setText} />
        <Button type="submit" icon={Send} disabled={!canPost}>
          {t('post')}
        </Button>
      </form>
    </section>
  );
}
