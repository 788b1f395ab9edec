//! `xnagraph-stress`: deterministic multi-frame stress scenarios, one JSON object per line on
//! stdout (one per frame, the scenario's own samples, then a summary with p50/p95/p99).
//!
//! ```sh
//! cargo run --release -p xnagraph-benches --bin xnagraph-stress -- sprites --waves 160 --per-wave 1000
//! cargo run --release -p xnagraph-benches --bin xnagraph-stress -- rt-churn
//! cargo run --release -p xnagraph-benches --bin xnagraph-stress -- cubes --mode instanced --ash-reference
//! ```

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::layer::SubscriberExt;
use xnagraph::game::GameContext;
use xnagraph::{
    BackendKind, CompilePolicy, DepthFormat, DeviceOptions, GpuTimingSupport, GraphicsDevice,
    GraphicsProfile, PresentationParameters, SpriteSortMode, TextureIndexing,
};
use xnagraph_benches::ash_cubes::DrawMode;
use xnagraph_benches::cli::{BackendChoice, OnOff};
use xnagraph_benches::post_chain;
use xnagraph_benches::stress::churn::Churn;
use xnagraph_benches::stress::cubes::{self, CubeOptions, Cubes};
use xnagraph_benches::stress::floor::{floor_fields, probe_fill_floor};
use xnagraph_benches::stress::mixed::Mixed;
use xnagraph_benches::stress::post::{self, Post};
use xnagraph_benches::stress::progress::Bar;
use xnagraph_benches::stress::reference;
use xnagraph_benches::stress::sprites::{self, SpriteOptions, Sprites};
use xnagraph_benches::stress::timing::StageTimes;
use xnagraph_benches::stress::uploads::{memcpy_bytes_per_second, Uploads};
use xnagraph_benches::stress::window::run_windowed;
use xnagraph_benches::stress::{self as harness, FrameTimes, Scenario, Summary};
use xnagraph_benches::{json, number, string, Value};

mod cli;
use cli::{Cli, Command, Indexing, Mode, Sort};

/// Writes the back buffer of a headless `device` of `size` as an RGBA PNG.
fn write_back_buffer(
    device: &GraphicsDevice,
    size: (i32, i32),
    path: &std::path::Path,
) -> Result<(), String> {
    let count = (size.0 * size.1) as usize;
    let mut pixels = vec![xnagraph::Color::TRANSPARENT; count];
    device.get_back_buffer_data(None, &mut pixels, 0, count).map_err(|e| e.to_string())?;
    let rgba: Vec<u8> = pixels.iter().flat_map(|c| [c.r, c.g, c.b, c.a]).collect();
    xnagraph_benches::write_rgba_png(path, size.0 as u32, size.1 as u32, &rgba)
}

fn out(line: String) {
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{line}");
}

struct Run<'a> {
    cli: &'a Cli,
    times: StageTimes,
}

/// A headless device with `options` whose back buffer of `size` has a depth buffer of `depth`.
fn headless_device(
    size: (i32, i32),
    depth: DepthFormat,
    options: DeviceOptions,
) -> xnagraph::Result<GraphicsDevice> {
    let params = PresentationParameters {
        back_buffer_width: size.0,
        back_buffer_height: size.1,
        depth_stencil_format: depth,
        ..PresentationParameters::default()
    };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, params, options)
}

impl Run<'_> {
    fn device(&self, size: (i32, i32), policy: CompilePolicy) -> xnagraph::Result<GraphicsDevice> {
        self.device_with_depth(size, DepthFormat::None, policy)
    }

    /// [`Run::device`] with transient memory shared or not, whatever the command line says.
    fn device_sharing(
        &self,
        size: (i32, i32),
        policy: CompilePolicy,
        transient_aliasing: bool,
    ) -> xnagraph::Result<GraphicsDevice> {
        let options = DeviceOptions { transient_aliasing, ..self.options(policy) };
        headless_device(size, DepthFormat::None, options)
    }

    /// A headless device whose back buffer of `size` has a depth buffer of `depth`.
    fn device_with_depth(
        &self,
        size: (i32, i32),
        depth: DepthFormat,
        policy: CompilePolicy,
    ) -> xnagraph::Result<GraphicsDevice> {
        headless_device(size, depth, self.options(policy))
    }

    /// The command line's options over the environment's (`XNAGRAPH_CAPTURE` captures a run;
    /// `XNAGRAPH_VALIDATION=1` is `--validation`); `--backend` wins over `XNAGRAPH_BACKEND`.
    fn options(&self, policy: CompilePolicy) -> DeviceOptions {
        let env = DeviceOptions::from_env();
        DeviceOptions {
            validation: self.cli.validation || env.validation,
            frames_in_flight: self.cli.frames_in_flight,
            render_thread: !self.cli.no_render_thread,
            compile_policy: policy,
            texture_indexing: match self.cli.texture_indexing {
                Indexing::Auto => TextureIndexing::Auto,
                Indexing::Runs => TextureIndexing::Runs,
                Indexing::Branches => TextureIndexing::Branches,
            },
            timeout: std::time::Duration::from_secs(self.cli.timeout_s),
            backend: match self.cli.backend {
                BackendChoice::Vulkan => BackendKind::Vulkan,
                BackendChoice::Sdlgpu => BackendKind::SdlGpu,
            },
            gpu_timing: self.cli.timestamps == OnOff::On,
            mapped_sprites: self.cli.mapped_sprites == OnOff::On,
            auto_instancing: self.cli.auto_instancing == OnOff::On,
            transient_aliasing: self.cli.transient_aliasing == OnOff::On,
            ..env
        }
    }

    /// Runs `frames` frames of the scenario `make` creates on a device with a back buffer of
    /// `size`, headless or in a window (`--window`), printing a line per frame unless quiet;
    /// `report` gets the figures while the device exists. The back buffer has no depth buffer
    /// headless, the game loop's Depth24 in a window, unless `depth` names one.
    fn scenario<S: Scenario, T>(
        &self,
        name: &str,
        (size, depth): ((i32, i32), Option<DepthFormat>),
        frames: u32,
        make: impl FnOnce(&GraphicsDevice) -> xnagraph::Result<S>,
        report: impl FnOnce(&GraphicsDevice, &mut S, Vec<FrameTimes>) -> Result<T, String>,
    ) -> Result<T, String> {
        if !self.cli.window {
            let depth = depth.unwrap_or(DepthFormat::None);
            let device = self
                .device_with_depth(size, depth, CompilePolicy::Graph)
                .map_err(|e| e.to_string())?;
            let mut scenario = make(&device).map_err(|e| e.to_string())?;
            let times = self.frames(name, &device, &mut scenario, frames)?;
            if let Some(path) = &self.cli.png {
                write_back_buffer(&device, size, path)?;
            }
            return report(&device, &mut scenario, times);
        }
        let mut ctx = GameContext::new();
        ctx.window.title = format!("xnagraph-stress {name}");
        ctx.is_fixed_time_step = false;
        ctx.graphics.preferred_back_buffer_width = size.0;
        ctx.graphics.preferred_back_buffer_height = size.1;
        ctx.graphics.synchronize_with_vertical_retrace = false;
        ctx.graphics.graphics_profile = GraphicsProfile::HiDef;
        if let Some(depth) = depth {
            ctx.graphics.preferred_depth_stencil_format = depth;
        }
        ctx.graphics.device_options = self.options(CompilePolicy::Graph);
        let mut bar = Bar::new(frames);
        run_windowed(
            &mut ctx,
            frames,
            self.cli.keep_open,
            &self.times,
            &mut bar,
            &mut |line| out(line),
            make,
            {
                |device: &GraphicsDevice, scenario: &mut S, times: Vec<FrameTimes>| {
                    self.emit(name, device, &times)?;
                    report(device, scenario, times)
                }
            },
        )
    }

    /// Runs `frames` frames of `scenario`, printing a line per frame unless quiet.
    fn frames(
        &self,
        name: &str,
        device: &GraphicsDevice,
        scenario: &mut dyn Scenario,
        frames: u32,
    ) -> Result<Vec<FrameTimes>, String> {
        let mut bar = Bar::new(frames);
        let result =
            harness::run(device, scenario, frames, &self.times, &mut bar, &mut |line| out(line));
        drop(bar);
        let times = result.map_err(|e| e.to_string())?;
        self.emit(name, device, &times)?;
        Ok(times)
    }

    /// Prints a line per frame unless quiet; fails on validation messages.
    fn emit(
        &self,
        name: &str,
        device: &GraphicsDevice,
        times: &[FrameTimes],
    ) -> Result<(), String> {
        if !self.cli.quiet {
            for (i, f) in times.iter().enumerate() {
                out(f.json(name, i));
            }
        }
        xnagraph_benches::no_validation_messages(&device.diagnostics().take_messages())
    }

    fn plot(&self, title: &str, times: &[FrameTimes]) -> Result<(), String> {
        if let Some(path) = &self.cli.plot {
            std::fs::write(path, harness::plot_svg(title, times))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

fn sort_mode(sort: Sort) -> SpriteSortMode {
    match sort {
        Sort::Deferred => SpriteSortMode::Deferred,
        Sort::Texture => SpriteSortMode::Texture,
        Sort::BackToFront => SpriteSortMode::BackToFront,
    }
}

fn adapter(device: &GraphicsDevice) -> (&'static str, Value) {
    ("adapter", string(device.adapter_name()))
}

/// Where the frames went: `window` (`--window`) or `headless`.
fn presented(cli: &Cli) -> (&'static str, Value) {
    ("presented", string(if cli.window { "window" } else { "headless" }))
}

/// How the summary's GPU figures were measured (or why there are none).
fn gpu_timing(device: &GraphicsDevice, cli: &Cli) -> (&'static str, Value) {
    let text = match device.gpu_timing_support() {
        _ if cli.timestamps == OnOff::Off => {
            "off (--timestamps off): frame time is fence to fence".to_owned()
        }
        GpuTimingSupport::Available { calibrated } => {
            format!("timestamps ({})", if calibrated { "calibrated" } else { "offset estimated" })
        }
        GpuTimingSupport::Unavailable(why) => format!("none ({why}): frame time is fence to fence"),
    };
    ("gpu_timing", string(&text))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let times = StageTimes::default();
    let subscriber = tracing_subscriber::registry().with(times.clone());
    if tracing::subscriber::set_global_default(subscriber).is_err() {
        eprintln!("xnagraph-stress: a tracing subscriber is already installed");
    }
    let run = Run { cli: &cli, times };
    match scenario(&run) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("xnagraph-stress: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the scenario asked for; `Ok(false)` when it ran but broke one of its bounds.
fn scenario(run: &Run) -> Result<bool, String> {
    let cli = run.cli;
    let e = |e: xnagraph::XnaError| e.to_string();
    match cli.scenario {
        Command::Sprites {
            textures,
            sort,
            waves,
            per_wave,
            ramp,
            mipmaps,
            ash_reference,
            burst,
        } => {
            let options = SpriteOptions {
                textures,
                sort: sort_mode(sort),
                waves,
                per_wave,
                seed: cli.seed,
                mipmaps,
                burst,
            };
            if ramp {
                if cli.window {
                    return Err("--ramp runs headless only".to_owned());
                }
                let device = run
                    .device((sprites::WIDTH, sprites::HEIGHT), CompilePolicy::Graph)
                    .map_err(e)?;
                sprites::ramp(&device, options, &run.times, &mut out).map_err(e)?;
                return Ok(true);
            }
            let frames = cli.frames.unwrap_or(300);
            let size = (sprites::WIDTH, sprites::HEIGHT);
            let make = |device: &GraphicsDevice| Sprites::new(device, options);
            run.scenario("sprites", (size, None), frames, make, |device, scenario, times| {
                let count = scenario.count();
                let per_sprite = |get: fn(&FrameTimes) -> f64| {
                    let mut v: Vec<f64> = times.iter().map(get).collect();
                    number(harness::percentile(&mut v, 50.0) * 1e9 / count.max(1) as f64)
                };
                let mut fields = vec![
                    adapter(device),
                    gpu_timing(device, cli),
                    presented(cli),
                    ("sprites", count.into()),
                    ("textures", textures.into()),
                    ("mipmaps", mipmaps.into()),
                    ("update_ns_per_sprite_p50", per_sprite(|f| f.update.as_secs_f64())),
                    ("record_ns_per_sprite_p50", per_sprite(|f| f.record.as_secs_f64())),
                    (
                        "update_record_ns_per_sprite_p50",
                        per_sprite(|f| (f.update + f.record).as_secs_f64()),
                    ),
                    ("frame_ns_per_sprite_p50", per_sprite(|f| f.frame.as_secs_f64())),
                ];
                if ash_reference {
                    let mut gpu: Vec<f64> =
                        times.iter().filter_map(|f| f.gpu).map(|d| d.as_secs_f64() * 1e3).collect();
                    let measured = reference::measure(cli.validation, scenario, size)?;
                    fields
                        .extend(reference::fields(harness::percentile(&mut gpu, 50.0), &measured));
                }
                out(Summary(&times).json("sprites", &fields));
                run.plot("sprites", &times)?;
                Ok(true)
            })
        }
        Command::RtChurn => {
            let frames = cli.frames.unwrap_or(10_000);
            let make = |device: &GraphicsDevice| {
                Churn::new(device, frames, cli.frames_in_flight, !cli.no_render_thread)
            };
            run.scenario("rt-churn", ((640, 360), None), frames, make, |device, churn, times| {
                let verdict = churn.verdict();
                let (pass, text) = match &verdict {
                    Ok(t) => (true, t.clone()),
                    Err(t) => (false, t.clone()),
                };
                out(Summary(&times).json(
                    "rt-churn",
                    &[
                        adapter(device),
                        gpu_timing(device, cli),
                        presented(cli),
                        ("pass", pass.into()),
                        ("verdict", string(&text)),
                    ],
                ));
                run.plot("rt-churn", &times)?;
                if !pass {
                    eprintln!("xnagraph-stress: rt-churn failed: {text}");
                }
                Ok(pass)
            })
        }
        Command::PostChain { width, height, sprites, bandwidth_gbs, no_fill_probe, reflection } => {
            if cli.window {
                // Two devices, one per policy, and one window event loop per process.
                return Err("post-chain compares two devices and runs headless only".to_owned());
            }
            let frames = cli.frames.unwrap_or(100);
            let size = (width, height);
            // The screens of fragments the scene's sprites cover, averaged over the frames run.
            let coverage =
                (0..frames).map(|f| post_chain::scene_coverage(size, sprites, f)).sum::<f64>()
                    / (f64::from(frames.max(1)) * f64::from(width) * f64::from(height));
            let fill = if no_fill_probe {
                Err("skipped (--no-fill-probe)".to_owned())
            } else if reflection {
                Err("skipped (--reflection: the probe times the frame without it)".to_owned())
            } else {
                probe_fill_floor(cli.validation, size, coverage)?
            };
            let mut results = Vec::new();
            for (name, policy, sharing) in [
                ("graph", CompilePolicy::Graph, true),
                ("graph-unshared", CompilePolicy::Graph, false),
                ("frame-blind", CompilePolicy::FrameBlind, true),
            ] {
                let device = run.device_sharing((width, height), policy, sharing).map_err(e)?;
                let mut scenario =
                    Post::new(&device, (width, height), sprites, reflection).map_err(e)?;
                let times = run.frames("post-chain", &device, &mut scenario, frames)?;
                let result = post::finish(&device).map_err(e)?;
                let bytes = (result.cost.bytes_loaded + result.cost.bytes_stored) as f64;
                let bound_us = bytes / (bandwidth_gbs * 1e9) * 1e6;
                let mut gpu: Vec<f64> =
                    times.iter().filter_map(|f| f.gpu.map(|d| d.as_secs_f64() * 1e3)).collect();
                let gpu_p50 = harness::percentile(&mut gpu, 50.0);
                let mut fields = vec![
                    adapter(&device),
                    gpu_timing(&device, cli),
                    presented(cli),
                    ("policy", string(name)),
                    ("scene_samples", scenario.scene_samples().into()),
                    ("bytes_loaded", result.cost.bytes_loaded.into()),
                    ("bytes_stored", result.cost.bytes_stored.into()),
                    ("barriers", result.cost.barriers.into()),
                    ("transient_images", result.transient.images.into()),
                    ("transient_unaliased_bytes", result.transient.unaliased_bytes.into()),
                    ("transient_shared_bytes", result.transient.shared_bytes.into()),
                    ("transient_held_bytes", result.transient.held_bytes().into()),
                    ("bandwidth_bound_us", number(bound_us)),
                    ("gpu_p50_over_bound", number(gpu_p50 * 1e3 / bound_us)),
                ];
                fields.extend(floor_fields(gpu_p50, bound_us / 1e3, coverage, &fill));
                out(Summary(&times).json("post-chain", &fields));
                if name == "graph" {
                    run.plot("post-chain (graph)", &times)?;
                }
                results.push(result);
            }
            let [graph, unshared, blind] = &results[..] else {
                return Err("post-chain: a policy's run is missing".to_owned());
            };
            let differing = post::differing_pixels(graph, blind);
            let differing_shared = post::differing_pixels(graph, unshared);
            let traffic =
                |r: &post::PolicyResult| (r.cost.bytes_loaded + r.cost.bytes_stored) as f64;
            let held = |r: &post::PolicyResult| r.transient.held_bytes() as f64;
            out(json(&[
                ("scenario", string("post-chain")),
                ("reflection", reflection.into()),
                ("differing_pixels", differing.into()),
                ("differing_pixels_shared_against_unshared", differing_shared.into()),
                ("traffic_saved", number(1.0 - traffic(graph) / traffic(blind).max(1.0))),
                ("transient_held_bytes_shared", graph.transient.held_bytes().into()),
                ("transient_held_bytes_unshared", unshared.transient.held_bytes().into()),
                ("transient_memory_saved", number(1.0 - held(graph) / held(unshared).max(1.0))),
            ]));
            Ok(differing == 0 && differing_shared == 0)
        }
        Command::Uploads { mib } => {
            let frames = cli.frames.unwrap_or(200);
            let make = |device: &GraphicsDevice| Uploads::new(device, mib);
            run.scenario("uploads", ((256, 256), None), frames, make, |device, scenario, times| {
                let bytes = scenario.bytes_per_frame();
                let total: f64 = times.iter().map(|f| f.frame.as_secs_f64()).sum();
                let streamed = bytes as f64 * times.len() as f64 / total.max(1e-9);
                let memcpy = memcpy_bytes_per_second(bytes as usize, 5);
                out(Summary(&times).json(
                    "uploads",
                    &[
                        adapter(device),
                        gpu_timing(device, cli),
                        presented(cli),
                        ("bytes_per_frame", bytes.into()),
                        ("upload_mb_s", number(streamed / 1e6)),
                        ("memcpy_mb_s", number(memcpy / 1e6)),
                        ("ratio", number(streamed / memcpy)),
                    ],
                ));
                run.plot("uploads", &times)?;
                Ok(true)
            })
        }
        Command::Cubes { cubes: count, mode, width, height, ash_reference } => {
            if ash_reference && cli.window {
                // A windowed frame is drawn into the window's image and cannot be read back.
                return Err("cubes --ash-reference compares read-back pixels: headless only".into());
            }
            let frames = cli.frames.unwrap_or(100);
            let mode = match mode {
                Mode::Draws => DrawMode::Draws,
                Mode::Instanced => DrawMode::Instanced,
            };
            let options = CubeOptions { cubes: count, mode, size: (width, height), seed: cli.seed };
            let make = |device: &GraphicsDevice| Cubes::new(device, options);
            let target = ((width, height), Some(DepthFormat::Depth24));
            run.scenario("cubes", target, frames, make, |device, scenario, times| {
                let draws = scenario.draws_per_frame().max(1) as f64;
                let per_draw = |get: fn(&FrameTimes) -> f64| {
                    let mut v: Vec<f64> = times.iter().map(get).collect();
                    number(harness::percentile(&mut v, 50.0) * 1e9 / draws)
                };
                let mut fields = vec![
                    adapter(device),
                    gpu_timing(device, cli),
                    presented(cli),
                    ("cubes", scenario.count().into()),
                    ("mode", string(mode.name())),
                    ("draws", scenario.draws_per_frame().into()),
                    ("record_ns_per_draw_p50", per_draw(|f| f.record.as_secs_f64())),
                    ("lower_ns_per_draw_p50", per_draw(|f| f.stages.lower.as_secs_f64())),
                ];
                if ash_reference {
                    let mut gpu: Vec<f64> =
                        times.iter().filter_map(|f| f.gpu).map(|d| d.as_secs_f64() * 1e3).collect();
                    let engine = cubes::back_buffer(device, (width, height)).map_err(e)?;
                    let measured = cubes::measure_reference(cli.validation, scenario, &engine)?;
                    fields.extend(cubes::reference_fields(
                        harness::percentile(&mut gpu, 50.0),
                        scenario,
                        &measured,
                    ));
                }
                out(Summary(&times).json("cubes", &fields));
                run.plot("cubes", &times)?;
                Ok(true)
            })
        }
        Command::Mixed => {
            let frames = cli.frames.unwrap_or(300);
            let make = |device: &GraphicsDevice| Mixed::new(device, cli.seed);
            run.scenario("mixed", ((320, 240), None), frames, make, |device, _, times| {
                out(Summary(&times)
                    .json("mixed", &[adapter(device), gpu_timing(device, cli), presented(cli)]));
                run.plot("mixed", &times)?;
                Ok(true)
            })
        }
    }
}
