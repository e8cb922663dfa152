import { useCallback, useEffect, useRef, useState } from 'react';
import type { Language } from '../../../shared/constants.ts';
import { useAppDispatch } from '../../app/hooks.ts';
import { speechChanged } from './commandSlice.ts';
import { dialogAdded } from './dialogSlice.ts';
import { ECHO_TAIL_MS, isEcho } from './echo.ts';
import { browserEars, browserVoice } from '../../app/speech.ts';
import type { GuestRelay } from './guest-relay.ts';
import { eyeModeChanged } from './sessionSlice.ts';
import type { Speaker } from '../../../shared/jail-vocabulary.ts';
import { GUEST_SPEECH_SHOWN_MS } from '../../app/speech.ts';

/** A listen that ends sooner than this without words failed; the next one waits a moment. */
const QUICK_FAILURE_MS = 500;
const RELISTEN_DELAY_MS = 1_000;

/** A line shown under the eye, and who said it: the virtual Warden or a human warden (whose words the same voice reads). */
export interface Subtitle {
  text: string;
  by: Speaker;
}

export interface WardenVoice {
  /** The Warden's line being said, or the last one. */
  subtitle: Subtitle | null;
  /** What the guest just said (shown for 1.5 s, docs/rules.md). */
  heard: string | null;
  /** Says `text` with a subtitle, the eye in its dialogue mode meanwhile; `by` a human warden when their words are read. */
  say(text: string, by?: Speaker): Promise<void>;
}

/**
 * The Warden's voice on the live screen: lines said with subtitles, the
 * dialog the server sends (virtual or human warden) and callups spoken and
 * kept in the dialog list, and the guest's spoken words heard while `listening`
 * (each heard utterance goes to `onHeard`).
 */
export function useWardenVoice(relay: GuestRelay | null, language: Language, listening: boolean, onHeard: (utterance: string) => void): WardenVoice {
  const dispatch = useAppDispatch();
  const [subtitle, setSubtitle] = useState<Subtitle | null>(null);
  const [heard, setHeard] = useState<string | null>(null);
  const voice = useRef(browserVoice());
  const onHeardRef = useRef(onHeard);
  onHeardRef.current = onHeard;
  // The lines being said (no end yet), then each until a moment after its end (`ECHO_TAIL_MS`): what the microphone may hear of them.
  const saying = useRef<{ text: string; until: number }[]>([]);

  const say = useCallback(
    async (text: string, by: Speaker = 'virtual') => {
      setSubtitle({ text, by });
      const line = { text, until: Number.POSITIVE_INFINITY };
      saying.current.push(line);
      dispatch(eyeModeChanged('dialogue'));
      try {
        await voice.current.speak(text, language);
      } finally {
        line.until = Date.now() + ECHO_TAIL_MS;
        // The eye watches again once no line is being said.
        if (saying.current.every((said) => said.until !== Number.POSITIVE_INFINITY)) dispatch(eyeModeChanged('monitoring'));
      }
    },
    [dispatch, language],
  );

  useEffect(() => () => voice.current.cancel(), []);

  useEffect(() => {
    if (relay === null) return undefined;
    const onDialog = ({ dialog }: { dialog: { text: string; by: Speaker } }) => {
      dispatch(dialogAdded({ text: dialog.text, type: 1, by: dialog.by }));
      void say(dialog.text, dialog.by);
    };
    // A callup comes from a human warden at the console.
    const onFocus = ({ text }: { text: string }) => onDialog({ dialog: { text, by: 'human' } });
    relay.socket.on('warden_dialog_event_to_guest', onDialog);
    relay.socket.on('focus_to_guest', onFocus);
    return () => {
      relay.socket.off('warden_dialog_event_to_guest', onDialog);
      relay.socket.off('focus_to_guest', onFocus);
    };
  }, [relay, dispatch, say]);

  // Listening: one utterance at a time, each within the speech timeout (2.5 s), again and again.
  useEffect(() => {
    const ears = browserEars();
    if (!listening || !ears.available) return undefined;
    let stopped = false;
    let clear: ReturnType<typeof setTimeout> | undefined;
    dispatch(speechChanged(true));
    void (async () => {
      while (!stopped) {
        const started = Date.now();
        const utterance = await ears.listen(language);
        if (stopped) break;
        if (utterance === null || utterance.trim() === '') {
          // A recognizer that gives up at once (no microphone, refused): do not spin.
          if (Date.now() - started < QUICK_FAILURE_MS) await new Promise((resolve) => setTimeout(resolve, RELISTEN_DELAY_MS));
          continue;
        }
        // The Warden's own voice through the microphone is not the guest's; the guest speaking over it is.
        const now = Date.now();
        saying.current = saying.current.filter((line) => line.until > now);
        const beingSaid = saying.current.map((line) => line.text);
        if (isEcho(utterance, beingSaid)) continue;
        setHeard(utterance);
        clearTimeout(clear);
        clear = setTimeout(() => setHeard(null), GUEST_SPEECH_SHOWN_MS);
        onHeardRef.current(utterance);
      }
    })();
    return () => {
      stopped = true;
      clearTimeout(clear);
      dispatch(speechChanged(false));
    };
  }, [listening, language, dispatch]);

  return { subtitle, heard, say };
}
