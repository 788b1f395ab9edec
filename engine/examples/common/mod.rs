//! What the examples share: their command line, and a headless run that checks pixels.
//!
//! With no arguments an example opens a window and plays until it is closed (or Escape is
//! pressed). `--headless --frames N` plays N frames with no window and a fixed clock, reads the
//! last frame back and checks a few of its pixels; `--validation` turns on the Khronos
//! validation layer, whose every message fails the run. A failed check prints why and exits
//! with status 1, so CI runs every example this way.

use std::process::ExitCode;

use xnagraph::game::{Game, GameContext, GameTime, Keyboard, Keys};
use xnagraph::{Color, Result};

/// The command line of an example.
pub struct Args {
    /// `--headless`: no window; play `frames` frames, then check the last.
    pub headless: bool,
    /// `--frames N` (default 3).
    pub frames: u64,
    /// `--validation`: the Khronos validation layer on, any message a failure.
    pub validation: bool,
}

const USAGE: &str = "usage: [--headless] [--frames N] [--validation]";

impl Args {
    /// The arguments after the program name; an unknown one is an error naming the usage.
    pub fn parse() -> std::result::Result<Args, String> {
        let mut args = Args { headless: false, frames: 3, validation: false };
        let mut words = std::env::args().skip(1);
        while let Some(word) = words.next() {
            match word.as_str() {
                "--headless" => args.headless = true,
                "--validation" => args.validation = true,
                "--frames" => {
                    let n = words.next().and_then(|n| n.parse().ok()).filter(|&n| n > 0);
                    args.frames = n.ok_or(format!("--frames needs a positive count; {USAGE}"))?;
                }
                "--help" | "-h" => return Err(USAGE.to_owned()),
                other => return Err(format!("unknown argument {other:?}; {USAGE}")),
            }
        }
        Ok(args)
    }
}

/// The last frame of a headless run, row by row.
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Color>,
}

impl Frame {
    /// The pixel at (`x`, `y`), if the frame has one there.
    pub fn at(&self, x: usize, y: usize) -> Option<Color> {
        (x < self.width && y < self.height).then(|| self.pixels[y * self.width + x])
    }

    /// `Ok` when the pixel at (`x`, `y`) is `expected`, give or take 2 in each channel (GPUs
    /// round differently); otherwise what `what` shows instead.
    pub fn expect(
        &self,
        x: usize,
        y: usize,
        expected: Color,
        what: &str,
    ) -> std::result::Result<(), String> {
        let got = self.at(x, y).ok_or(format!("{what}: ({x}, {y}) is outside the frame"))?;
        let near = |a: u8, b: u8| a.abs_diff(b) <= 2;
        if near(got.r, expected.r)
            && near(got.g, expected.g)
            && near(got.b, expected.b)
            && near(got.a, expected.a)
        {
            Ok(())
        } else {
            Err(format!("{what}: pixel ({x}, {y}) is {got:?}, expected {expected:?}"))
        }
    }
}

/// Plays `game` in a window titled `title`, or headless as the command line says; headless, the
/// last frame must pass `check`. The exit status says whether everything held.
pub fn run<G: Game>(
    title: &str,
    game: G,
    check: impl FnOnce(&G, &Frame) -> std::result::Result<(), String>,
) -> ExitCode {
    let result = Args::parse().and_then(|args| play(title, game, &args, check));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{title}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn play<G: Game>(
    title: &str,
    game: G,
    args: &Args,
    check: impl FnOnce(&G, &Frame) -> std::result::Result<(), String>,
) -> std::result::Result<(), String> {
    let mut ctx = GameContext::new();
    ctx.window.title = title.to_owned();
    ctx.graphics.device_options.validation = args.validation;
    let last = args.headless.then_some(args.frames);
    let mut checked = Checked { game, last, drawn: 0, frame: None, messages: Vec::new() };
    let played = match args.headless {
        true => ctx.run_headless(&mut checked, args.frames, |_, _| {}),
        false => ctx.run(&mut checked),
    };
    played.map_err(|e| e.to_string())?;
    if let Some(first) = checked.messages.first() {
        return Err(format!("{} validation messages, the first: {first}", checked.messages.len()));
    }
    if !args.headless {
        return Ok(());
    }
    let frame = checked.frame.take().ok_or("the last frame was not drawn")?;
    check(&checked.game, &frame)?;
    println!("{title}: {} frames, pixels checked", args.frames);
    Ok(())
}

/// A game as the example wrote it, with what the harness adds: Escape quits, the last frame of
/// a headless run is read back, and validation messages are collected.
struct Checked<G> {
    game: G,
    /// Headless: the number of the frame to read back (from 1).
    last: Option<u64>,
    drawn: u64,
    frame: Option<Frame>,
    messages: Vec<String>,
}

impl<G: Game> Game for Checked<G> {
    fn initialize(&mut self, ctx: &mut GameContext) -> Result<()> {
        self.game.initialize(ctx)
    }

    fn load_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        self.game.load_content(ctx)
    }

    fn unload_content(&mut self, ctx: &mut GameContext) -> Result<()> {
        self.game.unload_content(ctx)?;
        let device = ctx.graphics_device()?;
        device.wait_idle()?;
        self.messages.extend(device.diagnostics().take_messages());
        Ok(())
    }

    fn update(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        if Keyboard::get_state().is_key_down(Keys::Escape) {
            ctx.exit();
        }
        self.game.update(ctx, time)
    }

    fn draw(&mut self, ctx: &mut GameContext, time: &GameTime) -> Result<()> {
        self.game.draw(ctx, time)?;
        self.drawn += 1;
        if self.last == Some(self.drawn) {
            let device = ctx.graphics_device()?;
            let params = device.presentation_parameters();
            let (width, height) =
                (params.back_buffer_width as usize, params.back_buffer_height as usize);
            let mut pixels = vec![Color::TRANSPARENT; width * height];
            device.get_back_buffer_data(None, &mut pixels, 0, width * height)?;
            self.frame = Some(Frame { width, height, pixels });
        }
        Ok(())
    }

    fn end_draw(&mut self, ctx: &mut GameContext) -> Result<()> {
        self.game.end_draw(ctx)
    }
}
