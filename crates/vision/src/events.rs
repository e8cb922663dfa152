//! The event rules: when a frame's facts make a no-motion, motion, darkness,
//! nodding, away or back event due. Each fires at most once per episode.

pub use crate::layout::{EVENT_AWAY, EVENT_BACK, EVENT_DARKNESS, EVENT_MOTION, EVENT_NODDING, EVENT_NO_MOTION};
use crate::params::*;

/// Nods older than the window are dropped; this bounds the queue even when
/// frames arrive far faster than once a second. The queue is a `Vec` whose
/// oldest entry is removed by shifting the rest (at most 63 values, a few
/// times a minute at most): `VecDeque`'s ring code cost the wasm module
/// more than the queue's work is worth (docs/vision.md, "Measured").
const MAX_NODS: usize = 64;

/// The per-session settings of the rules.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub no_motion_threshold: f64,
    pub no_motion_ms: f64,
    pub darkness_ms: f64,
    pub away_ms: f64,
}

impl Rules {
    pub fn new(ios: bool, sleeper: bool) -> Rules {
        let count = if sleeper { NO_MOTION_COUNT_SLEEPER_S } else { NO_MOTION_COUNT_S };
        let away = if sleeper { AWAY_COUNT_SLEEPER_S } else { AWAY_COUNT_S };
        Rules {
            no_motion_threshold: if ios { NO_MOTION_THRESHOLD_IOS } else { NO_MOTION_THRESHOLD },
            no_motion_ms: count as f64 * 1000.0,
            darkness_ms: DARKNESS_COUNT_S as f64 * 1000.0,
            away_ms: away as f64 * 1000.0,
        }
    }
}

/// A face found in a frame, in fractions of the frame's height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceFact {
    /// The centre's vertical position.
    pub y: f64,
    /// The side.
    pub size: f64,
}

/// What the rules need to know about one frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameFacts {
    pub time_ms: f64,
    pub has_previous: bool,
    pub motion_score: f64,
    pub dark: bool,
    pub whitelisted: bool,
    /// Whether faces are looked for at all (a face model is loaded): without
    /// it an absent face says nothing.
    pub face_detector: bool,
    pub face: Option<FaceFact>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    pub events: u32,
    /// Reversals of the head in the nods of the nod window.
    pub nodding_count: u32,
    pub low_motion_ms: f64,
    pub dark_ms: f64,
    pub no_face_ms: f64,
}

/// The last face found, for the nods.
#[derive(Clone, Copy, Debug)]
struct Sighting {
    time_ms: f64,
    y: f64,
}

#[derive(Debug, Default)]
pub struct EventState {
    last_time_ms: Option<f64>,
    low_motion_ms: f64,
    dark_ms: f64,
    no_face_ms: f64,
    no_motion_episode: bool,
    darkness_episode: bool,
    nodding_episode: bool,
    away_episode: bool,
    last_face: Option<Sighting>,
    /// Where the face was when its current sink began, and the sink's steps so far.
    sink_top_y: f64,
    sink_steps: u32,
    nods: Vec<f64>,
}

/// Drops the times at or beyond `window_ms` before `now`.
fn expire(times: &mut Vec<f64>, now: f64, window_ms: f64) {
    let mut expired = 0;
    for &oldest in times.iter() {
        if now - oldest < window_ms {
            break;
        }
        expired += 1;
    }
    times.drain(..expired);
}

fn push_bounded(times: &mut Vec<f64>, time_ms: f64) {
    if times.len() == MAX_NODS {
        times.remove(0);
    }
    times.push(time_ms);
}

impl EventState {
    pub fn update(&mut self, rules: &Rules, facts: &FrameFacts) -> Outcome {
        let elapsed = match self.last_time_ms {
            None => FRAME_INTERVAL_MS,
            Some(last) => (facts.time_ms - last).clamp(0.0, MAX_FRAME_GAP_MS),
        };
        self.last_time_ms = Some(facts.time_ms);
        let mut events = 0;

        // Away: no face where one could be seen. A dark frame can hide a
        // face, so it pauses the run (the darkness rule speaks for it).
        if facts.face.is_some() || facts.whitelisted || !facts.face_detector {
            self.no_face_ms = 0.0;
        } else if !facts.dark {
            self.no_face_ms += elapsed;
        }
        if facts.face.is_some() && self.away_episode {
            events |= EVENT_BACK;
            self.away_episode = false;
        }
        if !self.away_episode && self.no_face_ms >= rules.away_ms {
            events |= EVENT_AWAY;
            self.away_episode = true;
        }

        let moving = facts.has_previous && facts.motion_score >= rules.no_motion_threshold;
        let low_motion = facts.has_previous && !facts.whitelisted && !moving;
        self.low_motion_ms = if low_motion { self.low_motion_ms + elapsed } else { 0.0 };
        if self.no_motion_episode && moving {
            events |= EVENT_MOTION;
            self.no_motion_episode = false;
        }
        if low_motion && !self.no_motion_episode && self.low_motion_ms >= rules.no_motion_ms {
            // An empty seat is one accusation: when no face was found for the
            // whole still run, the away event speaks for it.
            let seat_empty = self.away_episode && self.no_face_ms >= self.low_motion_ms;
            if !seat_empty {
                events |= EVENT_NO_MOTION;
            }
            self.no_motion_episode = true;
        }

        // A face found is light enough to watch.
        let counts_as_dark = facts.dark && !facts.whitelisted && facts.face.is_none();
        self.dark_ms = if counts_as_dark { self.dark_ms + elapsed } else { 0.0 };
        if !facts.dark || facts.face.is_some() {
            self.darkness_episode = false;
        }
        if counts_as_dark && !self.darkness_episode && self.dark_ms >= rules.darkness_ms {
            events |= EVENT_DARKNESS;
            self.darkness_episode = true;
        }

        self.follow_face(facts);
        expire(&mut self.nods, facts.time_ms, NOD_WINDOW_MS);
        // The nodding count is in reversals of the head's movement: a nod
        // is two (down, then up), and each nod after the first in the window
        // turns down again, so three nods are the count's five.
        let nodding_count = (2 * self.nods.len() as u32).saturating_sub(1);
        if nodding_count == 0 {
            self.nodding_episode = false;
        }
        if nodding_count >= NODDING_COUNT && !self.nodding_episode {
            events |= EVENT_NODDING;
            self.nodding_episode = true;
        }

        Outcome {
            events,
            nodding_count,
            low_motion_ms: self.low_motion_ms,
            dark_ms: self.dark_ms,
            no_face_ms: self.no_face_ms,
        }
    }

    /// Follows the face for nods. Nodding is judged on the face alone: a
    /// head that cannot be seen cannot be said to nod, and the motion
    /// centroid, tried on real footage, reversed as often for a person who
    /// types or talks as for one who dozes (docs/vision.md, Nodding).
    ///
    /// A nod is a head that sinks gradually and jerks back up: the face moved
    /// down in at least two consecutive samples, by at least the sink step
    /// each and the nod drop in all, then rose by the nod drop in one sample.
    /// Talking, typing and reading move the head far less than a quarter of
    /// a face; looking down at notes and back drops in one sample, not two.
    fn follow_face(&mut self, facts: &FrameFacts) {
        let face = match (facts.face_detector, facts.face) {
            (true, Some(face)) => face,
            _ => return,
        };
        let consecutive = self.last_face.filter(|last| facts.time_ms - last.time_ms <= MAX_FRAME_GAP_MS);
        match consecutive {
            Some(last) => {
                let drop = face.y - last.y;
                let sunk = last.y - self.sink_top_y;
                if -drop >= NOD_FACE_DROP * face.size && self.sink_steps >= 2 && sunk >= NOD_FACE_DROP * face.size {
                    push_bounded(&mut self.nods, facts.time_ms);
                }
                if drop >= NOD_FACE_SINK_STEP * face.size {
                    if self.sink_steps == 0 {
                        self.sink_top_y = last.y;
                    }
                    self.sink_steps += 1;
                } else {
                    self.sink_steps = 0;
                }
            }
            None => self.sink_steps = 0,
        }
        self.last_face = Some(Sighting { time_ms: facts.time_ms, y: face.y });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn still(time_ms: f64) -> FrameFacts {
        FrameFacts {
            time_ms,
            has_previous: true,
            motion_score: 0.5,
            dark: false,
            whitelisted: false,
            face_detector: false,
            face: None,
        }
    }

    fn moving(time_ms: f64) -> FrameFacts {
        FrameFacts { motion_score: 6.0, ..still(time_ms) }
    }

    /// Feeds frames one second apart from t = 1 s and returns each outcome.
    fn run(rules: &Rules, state: &mut EventState, frames: impl IntoIterator<Item = FrameFacts>) -> Vec<Outcome> {
        frames.into_iter().map(|facts| state.update(rules, &facts)).collect()
    }

    fn seconds(from: u32, to: u32) -> impl Iterator<Item = f64> {
        (from..to).map(|s| s as f64 * 1000.0)
    }

    fn fired(outcomes: &[Outcome], event: u32) -> Vec<usize> {
        outcomes.iter().enumerate().filter(|(_, o)| o.events & event != 0).map(|(i, _)| i).collect()
    }

    #[test]
    fn no_motion_fires_on_the_180th_still_second_once() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, seconds(1, 400).map(still));
        assert_eq!(fired(&outcomes, EVENT_NO_MOTION), vec![179]);
        assert_eq!(outcomes[179].low_motion_ms, 180_000.0);
    }

    #[test]
    fn sleepers_get_ninety_seconds() {
        let rules = Rules::new(false, true);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, seconds(1, 200).map(still));
        assert_eq!(fired(&outcomes, EVENT_NO_MOTION), vec![89]);
    }

    #[test]
    fn ios_threshold_is_three_and_a_half() {
        let noisy = |t| FrameFacts { motion_score: 2.5, ..still(t) };
        let mut state = EventState::default();
        let ios = run(&Rules::new(true, false), &mut state, seconds(1, 200).map(noisy));
        assert_eq!(fired(&ios, EVENT_NO_MOTION), vec![179]);
        let mut state = EventState::default();
        let other = run(&Rules::new(false, false), &mut state, seconds(1, 200).map(noisy));
        assert!(fired(&other, EVENT_NO_MOTION).is_empty());
    }

    #[test]
    fn motion_fires_when_movement_returns_and_opens_a_new_episode() {
        let rules = Rules::new(false, true);
        let mut state = EventState::default();
        let frames = seconds(1, 91).map(still).chain(seconds(91, 94).map(moving)).chain(seconds(94, 200).map(still));
        let outcomes = run(&rules, &mut state, frames);
        assert_eq!(fired(&outcomes, EVENT_NO_MOTION), vec![89, 182]);
        assert_eq!(fired(&outcomes, EVENT_MOTION), vec![90]);
    }

    #[test]
    fn motion_without_a_no_motion_event_is_not_an_event() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, seconds(1, 20).map(still).chain(seconds(20, 30).map(moving)));
        assert!(fired(&outcomes, EVENT_MOTION).is_empty());
    }

    #[test]
    fn a_whitelisted_frame_breaks_the_run() {
        let rules = Rules::new(false, true);
        let mut state = EventState::default();
        let frames = seconds(1, 200).map(|t| {
            let facts = still(t);
            FrameFacts { whitelisted: t == 50_000.0, ..facts }
        });
        let outcomes = run(&rules, &mut state, frames);
        assert_eq!(outcomes[48].low_motion_ms, 49_000.0);
        assert_eq!(outcomes[49].low_motion_ms, 0.0);
        assert_eq!(fired(&outcomes, EVENT_NO_MOTION), vec![139]);
    }

    #[test]
    fn the_first_frame_is_never_low_motion() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let first = FrameFacts { has_previous: false, motion_score: 0.0, ..still(0.0) };
        assert_eq!(state.update(&rules, &first).low_motion_ms, 0.0);
    }

    #[test]
    fn gaps_count_at_most_two_seconds() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, [still(0.0), still(1000.0), still(61_000.0), still(61_500.0)]);
        let runs: Vec<f64> = outcomes.iter().map(|o| o.low_motion_ms).collect();
        assert_eq!(runs, vec![1000.0, 2000.0, 4000.0, 4500.0]);
    }

    #[test]
    fn darkness_fires_after_thirty_dark_seconds_and_rearms_when_light_returns() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let dark = |t| FrameFacts { dark: true, ..moving(t) };
        let frames = seconds(0, 40).map(dark).chain(seconds(40, 41).map(moving)).chain(seconds(41, 80).map(dark));
        let outcomes = run(&rules, &mut state, frames);
        // The first frame counts one interval, so 30 s is reached on frame 29.
        assert_eq!(fired(&outcomes, EVENT_DARKNESS), vec![29, 70]);
    }

    #[test]
    fn whitelisted_darkness_does_not_count() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let frames = seconds(0, 100).map(|t| FrameFacts { dark: true, whitelisted: true, ..moving(t) });
        assert!(fired(&run(&rules, &mut state, frames), EVENT_DARKNESS).is_empty());
    }

    fn face_at(time_ms: f64, y: f64) -> FrameFacts {
        FrameFacts { face_detector: true, face: Some(FaceFact { y, size: 0.4 }), ..moving(time_ms) }
    }

    fn no_face(time_ms: f64) -> FrameFacts {
        FrameFacts { face_detector: true, ..still(time_ms) }
    }

    #[test]
    fn away_fires_after_the_away_count_without_a_face_and_back_when_it_returns() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let frames = seconds(0, 5)
            .map(|t| face_at(t, 0.5))
            .chain(seconds(5, 200).map(|t| FrameFacts { motion_score: 6.0, ..no_face(t) }))
            .chain(seconds(200, 203).map(|t| face_at(t, 0.5)));
        let outcomes = run(&rules, &mut state, frames);
        // The first frame without a face counts one second, like every run.
        assert_eq!(fired(&outcomes, EVENT_AWAY), vec![184]);
        assert_eq!(outcomes[184].no_face_ms, 180_000.0);
        assert_eq!(fired(&outcomes, EVENT_BACK), vec![200]);
        assert_eq!(outcomes[200].no_face_ms, 0.0);
    }

    #[test]
    fn sleepers_are_away_after_ninety_seconds() {
        let rules = Rules::new(false, true);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, seconds(1, 120).map(|t| FrameFacts { motion_score: 6.0, ..no_face(t) }));
        assert_eq!(fired(&outcomes, EVENT_AWAY), vec![89]);
    }

    #[test]
    fn without_a_face_model_no_one_is_ever_away() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, seconds(1, 400).map(moving));
        assert!(fired(&outcomes, EVENT_AWAY).is_empty());
        assert!(outcomes.iter().all(|o| o.no_face_ms == 0.0));
    }

    #[test]
    fn an_empty_still_seat_is_away_not_also_no_motion() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, seconds(1, 400).map(no_face));
        assert_eq!(fired(&outcomes, EVENT_AWAY), vec![179]);
        assert!(fired(&outcomes, EVENT_NO_MOTION).is_empty());
    }

    #[test]
    fn a_still_guest_whose_face_is_seen_gets_the_no_motion_event() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let frames = seconds(1, 400).map(|t| FrameFacts { motion_score: 0.5, ..face_at(t, 0.5) });
        let outcomes = run(&rules, &mut state, frames);
        assert_eq!(fired(&outcomes, EVENT_NO_MOTION), vec![179]);
        assert!(fired(&outcomes, EVENT_AWAY).is_empty());
    }

    #[test]
    fn darkness_pauses_the_away_count_and_a_face_in_the_dark_is_not_darkness() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let dark_face = |t| FrameFacts { dark: true, ..face_at(t, 0.5) };
        let dark_nobody = |t| FrameFacts { dark: true, motion_score: 6.0, ..no_face(t) };
        let frames = seconds(0, 100).map(dark_face).chain(seconds(100, 400).map(dark_nobody));
        let outcomes = run(&rules, &mut state, frames);
        assert_eq!(fired(&outcomes, EVENT_DARKNESS), vec![129]);
        assert!(fired(&outcomes, EVENT_AWAY).is_empty());
        assert_eq!(outcomes[399].no_face_ms, 0.0);
    }

    /// A head that sinks over `sink` seconds by `drop` face sides (0.4 of the
    /// height each) and jerks back up in one, `cycles` times, from `start` s.
    fn dozing(start: u32, cycles: u32, sink: u32, drop: f64) -> Vec<FrameFacts> {
        let mut frames = Vec::new();
        let mut t = start;
        for _ in 0..cycles {
            for step in 0..=sink {
                frames.push(face_at(t as f64 * 1000.0, 0.4 + 0.4 * drop * step as f64 / sink as f64));
                t += 1;
            }
            frames.push(face_at(t as f64 * 1000.0, 0.4));
            t += 1;
            for _ in 0..8 {
                frames.push(face_at(t as f64 * 1000.0, 0.4));
                t += 1;
            }
        }
        frames
    }

    #[test]
    fn a_head_that_sinks_and_jerks_back_three_times_is_nodding_on_the_face() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, dozing(0, 3, 4, 0.5));
        let nods: Vec<usize> =
            outcomes.iter().enumerate().filter(|(_, o)| o.events & EVENT_NODDING != 0).map(|(i, _)| i).collect();
        assert_eq!(nods.len(), 1);
        assert_eq!(outcomes[nods[0]].nodding_count, NODDING_COUNT);
    }

    #[test]
    fn small_bobs_and_quick_glances_down_are_not_nods() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        // Talking: the face bobs by a tenth of its side every other second.
        let talking = seconds(0, 120).map(|t| face_at(t, if (t as u32 / 1000) % 2 == 0 { 0.4 } else { 0.44 }));
        // Notes: the head drops half a face in one sample, stays, and comes back.
        let glances = seconds(120, 240).map(|t| face_at(t, if (t as u32 / 1000) % 6 < 3 { 0.4 } else { 0.6 }));
        let outcomes = run(&rules, &mut state, talking.chain(glances));
        assert!(outcomes.iter().all(|o| o.nodding_count == 0));
    }

    #[test]
    fn shallow_sinks_are_not_nods() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let outcomes = run(&rules, &mut state, dozing(0, 6, 4, 0.2));
        assert!(fired(&outcomes, EVENT_NODDING).is_empty());
    }

    #[test]
    fn nods_count_within_the_window_and_the_episode_ends_when_it_empties() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        // Three nods, then a quiet spell longer than the window, then three more.
        let first = dozing(0, 3, 4, 0.5);
        let quiet = seconds(40, 140).map(|t| face_at(t, 0.4));
        let second = dozing(140, 3, 4, 0.5);
        let outcomes = run(&rules, &mut state, first.into_iter().chain(quiet).chain(second));
        assert_eq!(fired(&outcomes, EVENT_NODDING).len(), 2);
        // Two nods a window apart are not three in it.
        let mut state = EventState::default();
        let slow = dozing(0, 1, 4, 0.5).into_iter().chain(dozing(100, 1, 4, 0.5)).chain(dozing(200, 1, 4, 0.5));
        assert!(fired(&run(&rules, &mut state, slow), EVENT_NODDING).is_empty());
    }

    #[test]
    fn a_head_that_cannot_be_seen_is_not_judged_to_nod() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        // The sink and the jerk happen with no face found, or with no model.
        let hidden = dozing(0, 4, 4, 0.5).into_iter().map(|facts| FrameFacts { face: None, ..facts });
        let unlooked = dozing(100, 4, 4, 0.5).into_iter().map(|facts| FrameFacts { face_detector: false, ..facts });
        let outcomes = run(&rules, &mut state, hidden.chain(unlooked));
        assert!(outcomes.iter().all(|o| o.nodding_count == 0));
    }
}
