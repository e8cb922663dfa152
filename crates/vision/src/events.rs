//! The event rules: when a frame's facts make a no-motion, motion, darkness
//! or nodding event due. Each fires at most once per episode.

use crate::params::*;
use std::collections::VecDeque;

pub const EVENT_NO_MOTION: u32 = 1;
pub const EVENT_MOTION: u32 = 2;
pub const EVENT_DARKNESS: u32 = 4;
pub const EVENT_NODDING: u32 = 8;

/// Reversals older than the window are dropped; this bounds the queue even
/// when frames arrive far faster than once a second.
const MAX_REVERSALS: usize = 64;

/// The per-session settings of the rules.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    pub no_motion_threshold: f64,
    pub no_motion_ms: f64,
    pub darkness_ms: f64,
}

impl Rules {
    pub fn new(ios: bool, sleeper: bool) -> Rules {
        let count = if sleeper { NO_MOTION_COUNT_SLEEPER_S } else { NO_MOTION_COUNT_S };
        Rules {
            no_motion_threshold: if ios { NO_MOTION_THRESHOLD_IOS } else { NO_MOTION_THRESHOLD },
            no_motion_ms: count as f64 * 1000.0,
            darkness_ms: DARKNESS_COUNT_S as f64 * 1000.0,
        }
    }
}

/// What the rules need to know about one frame.
#[derive(Clone, Copy, Debug)]
pub struct FrameFacts {
    pub time_ms: f64,
    pub has_previous: bool,
    pub motion_score: f64,
    pub dark: bool,
    pub whitelisted: bool,
    /// Vertical position of the motion centroid, as a fraction of the height.
    pub centroid_y: Option<f64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Outcome {
    pub events: u32,
    pub nodding_count: u32,
    pub low_motion_ms: f64,
    pub dark_ms: f64,
}

#[derive(Debug, Default)]
pub struct EventState {
    last_time_ms: Option<f64>,
    low_motion_ms: f64,
    dark_ms: f64,
    no_motion_episode: bool,
    darkness_episode: bool,
    nodding_episode: bool,
    anchor_y: Option<f64>,
    direction: i8,
    reversals: VecDeque<f64>,
}

impl EventState {
    pub fn update(&mut self, rules: &Rules, facts: &FrameFacts) -> Outcome {
        let elapsed = match self.last_time_ms {
            None => FRAME_INTERVAL_MS,
            Some(last) => (facts.time_ms - last).clamp(0.0, MAX_FRAME_GAP_MS),
        };
        self.last_time_ms = Some(facts.time_ms);
        let mut events = 0;

        let moving = facts.has_previous && facts.motion_score >= rules.no_motion_threshold;
        let low_motion = facts.has_previous && !facts.whitelisted && !moving;
        self.low_motion_ms = if low_motion { self.low_motion_ms + elapsed } else { 0.0 };
        if self.no_motion_episode && moving {
            events |= EVENT_MOTION;
            self.no_motion_episode = false;
        }
        if low_motion && !self.no_motion_episode && self.low_motion_ms >= rules.no_motion_ms {
            events |= EVENT_NO_MOTION;
            self.no_motion_episode = true;
        }

        let counts_as_dark = facts.dark && !facts.whitelisted;
        self.dark_ms = if counts_as_dark { self.dark_ms + elapsed } else { 0.0 };
        if !facts.dark {
            self.darkness_episode = false;
        }
        if counts_as_dark && !self.darkness_episode && self.dark_ms >= rules.darkness_ms {
            events |= EVENT_DARKNESS;
            self.darkness_episode = true;
        }

        if let Some(y) = facts.centroid_y {
            self.follow_centroid(y, facts.time_ms);
        }
        while let Some(&oldest) = self.reversals.front() {
            if facts.time_ms - oldest < NOD_WINDOW_MS {
                break;
            }
            self.reversals.pop_front();
        }
        let nodding_count = self.reversals.len() as u32;
        if nodding_count == 0 {
            self.nodding_episode = false;
        }
        if nodding_count >= NODDING_COUNT && !self.nodding_episode {
            events |= EVENT_NODDING;
            self.nodding_episode = true;
        }

        Outcome { events, nodding_count, low_motion_ms: self.low_motion_ms, dark_ms: self.dark_ms }
    }

    /// Moves the anchor once the centroid has gone far enough, and records a
    /// reversal when it went the other way from last time.
    fn follow_centroid(&mut self, y: f64, time_ms: f64) {
        let anchor = match self.anchor_y {
            None => {
                self.anchor_y = Some(y);
                return;
            }
            Some(anchor) => anchor,
        };
        let delta = y - anchor;
        if delta.abs() < NOD_MIN_STEP {
            return;
        }
        let direction = if delta > 0.0 { 1 } else { -1 };
        if self.direction != 0 && direction != self.direction {
            if self.reversals.len() == MAX_REVERSALS {
                self.reversals.pop_front();
            }
            self.reversals.push_back(time_ms);
        }
        self.direction = direction;
        self.anchor_y = Some(y);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn still(time_ms: f64) -> FrameFacts {
        FrameFacts { time_ms, has_previous: true, motion_score: 0.5, dark: false, whitelisted: false, centroid_y: None }
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

    fn centroid(time_ms: f64, y: f64) -> FrameFacts {
        FrameFacts { centroid_y: Some(y), ..moving(time_ms) }
    }

    #[test]
    fn five_reversals_within_the_window_are_a_nod() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let ys = [0.5, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4];
        let frames = ys.iter().enumerate().map(|(i, y)| centroid(i as f64 * 1000.0, *y));
        let outcomes = run(&rules, &mut state, frames);
        let counts: Vec<u32> = outcomes.iter().map(|o| o.nodding_count).collect();
        assert_eq!(counts, vec![0, 0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(fired(&outcomes, EVENT_NODDING), vec![6]);
    }

    #[test]
    fn jitter_below_the_step_is_not_a_reversal() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let frames = (0..30).map(|i| centroid(i as f64 * 1000.0, if i % 2 == 0 { 0.5 } else { 0.515 }));
        let outcomes = run(&rules, &mut state, frames);
        assert!(outcomes.iter().all(|o| o.nodding_count == 0));
    }

    #[test]
    fn slow_reversals_fall_out_of_the_window() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let ys = [0.5, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4];
        let frames = ys.iter().enumerate().map(|(i, y)| centroid(i as f64 * 5000.0, *y));
        let outcomes = run(&rules, &mut state, frames);
        assert!(outcomes.iter().all(|o| o.nodding_count <= 3));
        assert!(fired(&outcomes, EVENT_NODDING).is_empty());
    }

    #[test]
    fn a_nod_episode_ends_when_the_window_empties() {
        let rules = Rules::new(false, false);
        let mut state = EventState::default();
        let ys = [0.5, 0.6, 0.4, 0.6, 0.4, 0.6, 0.4];
        let first = ys.iter().enumerate().map(|(i, y)| centroid(i as f64 * 1000.0, *y));
        let quiet = seconds(7, 30).map(moving);
        let second = ys.iter().enumerate().map(|(i, y)| centroid(30_000.0 + i as f64 * 1000.0, *y));
        let outcomes = run(&rules, &mut state, first.chain(quiet).chain(second));
        // The anchor survives the quiet spell, so the second series reverses at once.
        assert_eq!(fired(&outcomes, EVENT_NODDING), vec![6, 35]);
    }
}
