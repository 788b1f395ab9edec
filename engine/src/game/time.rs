//! XNA's game clock: `GameTime` and the tick that decides how many times `Update` runs.
//!
//! In: the time a clock reports at each tick, the game's `IsFixedTimeStep` and
//! `TargetElapsedTime`. Out: zero or more `Update` calls, each with its [`GameTime`], and the
//! `GameTime` the tick's `Draw` sees. The rules are FNA's `Game.Tick`, which reproduces XNA 4.0:
//!
//! - elapsed real time accumulates; a fixed-step tick with less than one step accumulated
//!   sleeps the rest off and looks again, so every tick runs at least one `Update`;
//! - the accumulated time is clamped to [`MAX_ELAPSED_TIME`] (500 ms), which bounds the
//!   catch-up to `500 ms / TargetElapsedTime` updates in one tick (30 at 60 Hz);
//! - fixed step: one `Update` per whole step accumulated, each with `ElapsedGameTime` =
//!   `TargetElapsedTime`; the remainder carries to the next tick. Every update past the first
//!   in a tick adds one to a lag counter, a tick of exactly one update takes one off;
//!   `IsRunningSlowly` turns on when the lag reaches 5 and off only when it is back to 0.
//!   `Draw` then sees `ElapsedGameTime` = steps × `TargetElapsedTime`;
//! - variable step: one `Update` with everything accumulated (after the clamp).

use std::time::{Duration, Instant};

/// The most real time one tick accounts for (XNA's and FNA's `MaxElapsedTime`): a longer pause
/// (a debugger stop, a dragged window) is not caught up on.
pub const MAX_ELAPSED_TIME: Duration = Duration::from_millis(500);

/// The lag (extra updates not yet paid back by single-update ticks) at which a fixed-step game
/// is considered to be running slowly (FNA's and XNA's threshold).
const RUNNING_SLOWLY_LAG: u32 = 5;

/// XNA's `GameTime`: the game's clock as an `Update` or a `Draw` sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameTime {
    /// Game time since the start of the run (XNA's `TotalGameTime`): the sum of every update's
    /// elapsed time; a fixed-step game advances it by exactly `TargetElapsedTime` per update.
    pub total_game_time: Duration,
    /// Game time since the last update (XNA's `ElapsedGameTime`); in `Draw`, the time covered by
    /// the updates of this tick.
    pub elapsed_game_time: Duration,
    /// Whether a fixed-step game has fallen behind its target (XNA's `IsRunningSlowly`): it has
    /// needed several updates per tick to catch up. A game may draw less while it is set.
    pub is_running_slowly: bool,
}

/// Where the tick reads the time and how it waits (not XNA, which always uses a stopwatch and
/// `Thread.Sleep`). Injecting a clock makes the tick deterministic: headless runs advance a
/// clock by exactly `TargetElapsedTime` per frame, tests script it.
pub(crate) trait Clock {
    /// Time since the clock started.
    fn now(&mut self) -> Duration;
    /// Waits `duration` (a fixed-step tick that is ahead of its target sleeps it off).
    fn sleep(&mut self, duration: Duration);
}

/// The real clock of a windowed run: a monotonic stopwatch and `thread::sleep`.
pub(crate) struct SystemClock {
    start: Instant,
}

impl SystemClock {
    pub(crate) fn new() -> Self {
        SystemClock { start: Instant::now() }
    }
}

impl Clock for SystemClock {
    fn now(&mut self) -> Duration {
        self.start.elapsed()
    }

    fn sleep(&mut self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// A clock that only moves when told to, and by exactly what a sleep asks: headless runs and
/// tests.
#[derive(Default)]
pub(crate) struct ManualClock {
    pub(crate) now: Duration,
}

impl Clock for ManualClock {
    fn now(&mut self) -> Duration {
        self.now
    }

    fn sleep(&mut self, duration: Duration) {
        self.now += duration;
    }
}

/// How the game steps, read at the start of each tick (XNA's `IsFixedTimeStep` and
/// `TargetElapsedTime`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct StepMode {
    pub(crate) fixed: bool,
    pub(crate) target: Duration,
}

/// The state FNA's `Game.Tick` keeps between ticks.
#[derive(Debug, Default)]
pub(crate) struct GameTimer {
    accumulated: Duration,
    previous: Duration,
    time: GameTime,
    lag: u32,
}

impl GameTimer {
    /// A timer whose first tick measures from `start`.
    pub(crate) fn starting_at(start: Duration) -> Self {
        GameTimer { previous: start, ..GameTimer::default() }
    }

    /// One tick: calls `update` as the rules above say and returns the time `Draw` sees. An
    /// error from `update` ends the tick at once and is returned.
    pub(crate) fn tick<E>(
        &mut self,
        clock: &mut dyn Clock,
        mode: StepMode,
        mut update: impl FnMut(&GameTime) -> Result<(), E>,
    ) -> Result<GameTime, E> {
        loop {
            let now = clock.now();
            self.accumulated += now.saturating_sub(self.previous);
            self.previous = now;
            if mode.fixed && self.accumulated < mode.target {
                clock.sleep(mode.target - self.accumulated);
                continue;
            }
            break;
        }
        self.accumulated = self.accumulated.min(MAX_ELAPSED_TIME);
        if mode.fixed {
            self.time.elapsed_game_time = mode.target;
            let mut steps = 0u32;
            while self.accumulated >= mode.target {
                self.time.total_game_time += mode.target;
                self.accumulated -= mode.target;
                steps += 1;
                update(&self.time)?;
            }
            self.lag += steps.saturating_sub(1);
            if self.time.is_running_slowly {
                if self.lag == 0 {
                    self.time.is_running_slowly = false;
                }
            } else if self.lag >= RUNNING_SLOWLY_LAG {
                self.time.is_running_slowly = true;
            }
            if steps == 1 && self.lag > 0 {
                self.lag -= 1;
            }
            self.time.elapsed_game_time = mode.target * steps;
        } else {
            self.time.elapsed_game_time = self.accumulated;
            self.time.total_game_time += self.accumulated;
            self.accumulated = Duration::ZERO;
            update(&self.time)?;
        }
        Ok(self.time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STEP: Duration = Duration::from_millis(10);
    const FIXED: StepMode = StepMode { fixed: true, target: STEP };
    const VARIABLE: StepMode = StepMode { fixed: false, target: STEP };

    /// Runs one tick after the clock moved by `advance`; returns the updates' times and Draw's.
    fn tick(
        timer: &mut GameTimer,
        clock: &mut ManualClock,
        mode: StepMode,
        advance: Duration,
    ) -> (Vec<GameTime>, GameTime) {
        clock.now += advance;
        let mut updates = Vec::new();
        let draw = timer
            .tick(clock, mode, |t| {
                updates.push(*t);
                Ok::<(), ()>(())
            })
            .unwrap();
        (updates, draw)
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn fixed_step_runs_one_update_per_whole_step_and_carries_the_remainder() {
        let (mut timer, mut clock) = (GameTimer::default(), ManualClock::default());
        let (updates, draw) = tick(&mut timer, &mut clock, FIXED, ms(35));
        let totals: Vec<_> = updates.iter().map(|t| t.total_game_time).collect();
        assert_eq!(totals, [ms(10), ms(20), ms(30)]);
        assert!(updates.iter().all(|t| t.elapsed_game_time == STEP));
        assert_eq!(draw.elapsed_game_time, ms(30), "Draw sees the time of the tick's updates");
        // The 5 ms left over count towards the next tick: 5 + 5 is one more step.
        let (updates, _) = tick(&mut timer, &mut clock, FIXED, ms(5));
        assert_eq!(updates.len(), 1);
        assert_eq!(updates[0].total_game_time, ms(40));
        assert_eq!(clock.now, ms(40), "no sleep was needed");
    }

    #[test]
    fn fixed_step_ahead_of_its_target_sleeps_the_rest_and_then_updates_once() {
        let (mut timer, mut clock) = (GameTimer::default(), ManualClock::default());
        let (updates, draw) = tick(&mut timer, &mut clock, FIXED, ms(3));
        assert_eq!(clock.now, ms(10), "slept exactly the 7 ms missing");
        assert_eq!(updates.len(), 1);
        assert_eq!(draw.total_game_time, ms(10));
    }

    #[test]
    fn the_accumulated_time_is_clamped_to_500_ms() {
        let (mut timer, mut clock) = (GameTimer::default(), ManualClock::default());
        let (updates, _) = tick(&mut timer, &mut clock, FIXED, ms(2_000));
        assert_eq!(updates.len(), 50, "500 ms of 10 ms steps, not 200");
        let (updates, draw) = tick(&mut timer, &mut clock, VARIABLE, ms(900));
        assert_eq!(updates.len(), 1);
        assert_eq!(draw.elapsed_game_time, MAX_ELAPSED_TIME);
        assert_eq!(draw.total_game_time, ms(1_000));
    }

    #[test]
    fn variable_step_runs_one_update_with_everything_elapsed() {
        let (mut timer, mut clock) = (GameTimer::default(), ManualClock::default());
        let (updates, _) = tick(&mut timer, &mut clock, VARIABLE, ms(3));
        assert_eq!(clock.now, ms(3), "a variable-step tick never sleeps");
        assert_eq!(
            updates,
            [GameTime {
                total_game_time: ms(3),
                elapsed_game_time: ms(3),
                is_running_slowly: false
            }]
        );
        let (updates, draw) = tick(&mut timer, &mut clock, VARIABLE, ms(27));
        assert_eq!(updates.len(), 1);
        assert_eq!(draw.elapsed_game_time, ms(27));
        assert_eq!(draw.total_game_time, ms(30));
    }

    #[test]
    fn running_slowly_starts_at_a_lag_of_five_and_ends_when_it_is_paid_back() {
        let (mut timer, mut clock) = (GameTimer::default(), ManualClock::default());
        // Two ticks of 3 updates: lag 2, then 4 — not yet slow.
        for _ in 0..2 {
            let (updates, draw) = tick(&mut timer, &mut clock, FIXED, ms(30));
            assert_eq!(updates.len(), 3);
            assert!(!draw.is_running_slowly);
        }
        // A tick of 2 updates: lag exactly 5, slow; its updates ran before the flag was set.
        let (updates, draw) = tick(&mut timer, &mut clock, FIXED, ms(20));
        assert_eq!(updates.len(), 2);
        assert!(updates.iter().all(|t| !t.is_running_slowly));
        assert!(draw.is_running_slowly);
        // Single-update ticks pay the lag back one by one; slow until it reaches 0.
        for remaining in (1..=5).rev() {
            let (updates, draw) = tick(&mut timer, &mut clock, FIXED, STEP);
            assert!(updates[0].is_running_slowly && draw.is_running_slowly, "lag {remaining}");
        }
        let (_, draw) = tick(&mut timer, &mut clock, FIXED, STEP);
        assert!(!draw.is_running_slowly, "the lag is 0 again");
    }

    #[test]
    fn an_update_error_ends_the_tick_at_once() {
        let (mut timer, mut clock) = (GameTimer::default(), ManualClock::default());
        clock.now = ms(50);
        let mut calls = 0;
        let result = timer.tick(&mut clock, FIXED, |_| {
            calls += 1;
            if calls == 2 {
                Err("boom")
            } else {
                Ok(())
            }
        });
        assert_eq!(result, Err("boom"));
        assert_eq!(calls, 2, "no update after the failing one");
    }
}
