//! A stress scenario in a window (`xnagraph-stress --window`): the engine's game loop
//! ([`GameContext::run`]) opens a window of the back buffer's size and creates the device for
//! it; the scenario is a [`Game`] whose `Draw` records a frame and whose `EndDraw` presents it
//! through the same [`Runner`] a headless run uses, so the figures are the same. The run ends
//! after the frames asked for, or early when the window is closed; the figures of the frames
//! presented are reported either way while the device still exists: at the last frame, or at
//! `UnloadContent` when the window closed first. With `keep_open` the window stays after the
//! last frame, showing it (nothing more is drawn or presented), until it is closed.

use std::time::Duration;

use xnagraph::game::{Game, GameContext, GameTime};
use xnagraph::GraphicsDevice;

use super::timing::StageTimes;
use super::{FrameTimes, Progress, Runner, Scenario};

/// Makes the scenario once the device exists.
type Make<'a, S> = Box<dyn FnOnce(&GraphicsDevice) -> xnagraph::Result<S> + 'a>;
/// Reports the figures of the frames presented, before the device is dropped.
type Report<'a, S, T> =
    Box<dyn FnOnce(&GraphicsDevice, &mut S, Vec<FrameTimes>) -> Result<T, String> + 'a>;

struct Windowed<'a, S, T> {
    frames: u32,
    keep_open: bool,
    times: &'a StageTimes,
    progress: &'a mut dyn Progress,
    lines: &'a mut dyn FnMut(String),
    make: Option<Make<'a, S>>,
    report: Option<Report<'a, S, T>>,
    scenario: Option<S>,
    runner: Option<Runner>,
    result: Option<Result<T, String>>,
}

impl<S: Scenario, T> Game for Windowed<'_, S, T> {
    fn load_content(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        let device = ctx.graphics_device()?;
        if let Some(make) = self.make.take() {
            self.scenario = Some(make(device)?);
        }
        self.runner = Some(Runner::new(device, self.frames));
        Ok(())
    }

    fn update(&mut self, _: &mut GameContext, _: &GameTime) -> xnagraph::Result<()> {
        if self.result.is_some() {
            // Kept open after the last frame: the loop only waits for the window to close.
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    fn draw(&mut self, ctx: &mut GameContext, _: &GameTime) -> xnagraph::Result<()> {
        if let (Some(runner), Some(scenario)) = (&mut self.runner, &mut self.scenario) {
            runner.record(ctx.graphics_device()?, scenario)?;
        }
        Ok(())
    }

    fn end_draw(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        if let (Some(runner), Some(scenario)) = (&mut self.runner, &mut self.scenario) {
            let device = ctx.graphics_device()?;
            runner.present(device, scenario, self.times, self.progress, self.lines)?;
            if runner.is_complete() {
                self.report(ctx)?;
                if !self.keep_open {
                    ctx.exit();
                }
            }
        }
        Ok(())
    }

    fn unload_content(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        // The window closed before the last frame: the figures of the frames presented.
        self.report(ctx)
    }
}

impl<S: Scenario, T> Windowed<'_, S, T> {
    /// Finishes the run and reports it, once; the runner is gone afterwards, so nothing more is
    /// recorded or presented.
    fn report(&mut self, ctx: &mut GameContext) -> xnagraph::Result<()> {
        let (Some(runner), Some(scenario), Some(report)) =
            (self.runner.take(), self.scenario.as_mut(), self.report.take())
        else {
            return Ok(());
        };
        let device = ctx.graphics_device()?;
        let times = runner.finish(device, self.times)?;
        self.result = Some(report(device, scenario, times));
        Ok(())
    }
}

/// Runs up to `frames` frames of the scenario `make` creates in a window, with the device
/// `ctx`'s manager describes (size, options); `report` gets the figures of the frames
/// presented (fewer when the window was closed early) while the device exists. With
/// `keep_open` the window stays, showing the last frame, until it is closed.
#[allow(clippy::too_many_arguments)]
pub fn run_windowed<S: Scenario, T>(
    ctx: &mut GameContext,
    frames: u32,
    keep_open: bool,
    times: &StageTimes,
    progress: &mut dyn Progress,
    lines: &mut dyn FnMut(String),
    make: impl FnOnce(&GraphicsDevice) -> xnagraph::Result<S>,
    report: impl FnOnce(&GraphicsDevice, &mut S, Vec<FrameTimes>) -> Result<T, String>,
) -> Result<T, String> {
    let mut game = Windowed {
        frames,
        keep_open,
        times,
        progress,
        lines,
        make: Some(Box::new(make)),
        report: Some(Box::new(report)),
        scenario: None,
        runner: None,
        result: None,
    };
    let ran = ctx.run(&mut game).map_err(|e| e.to_string());
    match (ran, game.result) {
        (Err(e), _) => Err(e),
        (Ok(()), Some(result)) => result,
        (Ok(()), None) => Err("the window closed before the scenario started".to_owned()),
    }
}
