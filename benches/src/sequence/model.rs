//! The model: XNA's rules for every operation, and the content they leave.
//!
//! In: one operation at a time, and what the engine returned for it. Out: whether that result
//! is one XNA's rules allow ([`Expect`]), and for readbacks the pixels or bytes the model
//! predicts. The model then applies the operation to its own state, following the engine's
//! result where the rules allow several (an occlusion query that may or may not have
//! completed).
//!
//! The rules are XNA's, with the places where xnagraph documents a choice of its own: a
//! `DiscardContents` bind clears to opaque black and depth 1 (XNA leaves the content undefined);
//! a new `Texture2D` reads as zeros; an occlusion query's span may not leave the pass it began
//! in. Where several arguments are wrong at once, any of their errors is accepted (XNA's order
//! of checks is not part of its contract). An operation on an empty slot is skipped, and so is
//! a draw whose indices would read outside the bound vertex buffer (undefined in XNA).
//!
//! The rules here are written from XNA's documentation and behaviour, not read off the
//! engine's code: that is what makes a disagreement a finding.
//!
//! This file holds the state and the passes; `rules` says what each operation must return,
//! `content` what it leaves.

mod content;
mod rules;

use super::geometry::{coverage, decode, encode, same, strip, VERTEX_BYTES};
use super::ops::*;
use super::surface::{draw, product, Fill, Paint, Px, PxRect, Surface};
use xnagraph::XnaError;

/// An exception kind (an [`XnaError`] variant without its message).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    ArgumentNull,
    ArgumentOutOfRange,
    Argument,
    NotSupported,
    InvalidOperation,
    ObjectDisposed,
}

/// An error XNA's rules allow: its kind and the parameter (or, for `ObjectDisposed`, the type)
/// it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Want {
    pub kind: Kind,
    pub name: Option<&'static str>,
}

fn want(kind: Kind, name: &'static str) -> Want {
    Want { kind, name: Some(name) }
}

fn invalid() -> Want {
    Want { kind: Kind::InvalidOperation, name: None }
}

fn disposed(object: &'static str) -> Want {
    want(Kind::ObjectDisposed, object)
}

impl Want {
    /// Whether `e` is this error.
    pub fn matches(&self, e: &XnaError) -> bool {
        let (kind, name) = match e {
            XnaError::ArgumentNull { param } => (Kind::ArgumentNull, Some(*param)),
            XnaError::ArgumentOutOfRange { param, .. } => (Kind::ArgumentOutOfRange, Some(*param)),
            XnaError::Argument { param, .. } => (Kind::Argument, Some(*param)),
            XnaError::NotSupported { .. } => (Kind::NotSupported, None),
            XnaError::InvalidOperation { .. } => (Kind::InvalidOperation, None),
            XnaError::ObjectDisposed { object } => (Kind::ObjectDisposed, Some(*object)),
            _ => return false,
        };
        kind == self.kind && (self.name.is_none() || name == self.name)
    }
}

/// What the rules allow an operation to return.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// Not run (an empty slot, or undefined behaviour in XNA).
    Skip,
    /// Success.
    Ok,
    /// One of these errors.
    Err(Vec<Want>),
    /// Success or one of these errors.
    OkOr(Vec<Want>),
}

impl Expect {
    fn from_faults(faults: Vec<Want>) -> Expect {
        if faults.is_empty() {
            Expect::Ok
        } else {
            Expect::Err(faults)
        }
    }

    /// Whether `result` is allowed.
    pub fn admits<T>(&self, result: &Result<T, XnaError>) -> bool {
        match (self, result) {
            (Expect::Skip, _) => true,
            (Expect::Ok | Expect::OkOr(_), Ok(_)) => true,
            (Expect::Err(w) | Expect::OkOr(w), Err(e)) => w.iter().any(|w| w.matches(e)),
            _ => false,
        }
    }
}

/// What a successful operation returned.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Unit,
    /// Texels or pixels read back.
    Texels(Vec<[u8; 4]>),
    /// Vertex bytes read back.
    Bytes(Vec<u8>),
    /// Indices read back.
    Indices(Vec<u16>),
    /// `IsComplete`.
    Bool(bool),
    /// `PixelCount`.
    Count(i32),
}

/// The engine's answer to one operation.
pub type Outcome = Result<Value, XnaError>;

#[derive(Clone, Copy, Debug, PartialEq)]
enum ImageKind {
    BackBuffer,
    Texture,
    Target { preserve: bool },
}

#[derive(Clone, Debug)]
struct Image {
    kind: ImageKind,
    levels: Vec<Surface>,
    disposed: bool,
    /// A target was bound (XNA resolves it, and generates its mips, when it is unbound) since
    /// its mips were last generated.
    mips_dirty: bool,
}

impl Image {
    fn name(&self) -> &'static str {
        match self.kind {
            ImageKind::Target { .. } => "RenderTarget2D",
            _ => "Texture2D",
        }
    }

    /// What a draw that samples the whole image at any scale reads: one known value when every
    /// texel of every level holds it, else unknown content.
    fn sampled(&self) -> Px {
        let values: Option<Vec<Px>> = self.levels.iter().map(|l| l.uniform()).collect();
        match values {
            Some(v) if v.iter().all(|p| p.value() == v[0].value()) => {
                if v.iter().all(|p| *p == v[0]) {
                    v[0]
                } else {
                    Px::Near(v[0].value().unwrap())
                }
            }
            _ => {
                if self.levels.iter().any(|l| l.blur() == Px::Undefined) {
                    Px::Undefined
                } else {
                    Px::Defined
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
struct Buf {
    index: bool,
    dynamic: bool,
    write_only: bool,
    /// Elements (vertices or 16-bit indices).
    count: i32,
    bytes: Vec<Option<u8>>,
    disposed: bool,
}

impl Buf {
    fn name(&self) -> &'static str {
        match (self.index, self.dynamic) {
            (true, _) => "IndexBuffer",
            (false, true) => "DynamicVertexBuffer",
            (false, false) => "VertexBuffer",
        }
    }

    fn element(&self) -> usize {
        if self.index {
            2
        } else {
            VERTEX_BYTES
        }
    }
}

/// An effect's values (and, applied, the device's copy of them).
#[derive(Clone, Debug)]
struct EffectM {
    kind: EffectKind,
    tex: Option<usize>,
    tex2: Option<usize>,
    diffuse: [u8; 3],
    world: (i8, i8),
    texture_enabled: bool,
    vertex_color: bool,
    reference_alpha: u8,
}

#[derive(Clone, Debug, PartialEq)]
enum Phase {
    Idle,
    /// Begun; `pos` is the pass the span is in; `uncertain` when something happened since that
    /// xnagraph's contract does not say ends the pass; `count` what the draws since passed.
    Begun {
        pos: u64,
        uncertain: bool,
        count: Option<u64>,
    },
    /// Ended in the frame of flush epoch `epoch`; `complete` once the engine said so.
    Ended {
        epoch: u64,
        count: Option<u64>,
        complete: bool,
    },
}

#[derive(Clone, Debug)]
struct QueryM {
    disposed: bool,
    phase: Phase,
}

#[derive(Clone, Debug)]
struct Sprite {
    image: usize,
    rect: R,
    tint: Rgba,
    depth: u8,
}

#[derive(Clone, Debug)]
struct Batch {
    immediate: bool,
    /// The target size at `Begin`: an Immediate batch projects with the viewport of `Begin`.
    begin_size: (i32, i32),
    depth_test: bool,
    queue: Vec<Sprite>,
}

/// Which model rule to break on purpose, to check that the oracle notices (a check of the
/// checker).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sabotage {
    /// None: the model as written.
    None,
    /// A `DiscardContents` bind keeps the content (as a preserving one does).
    DiscardKeeps,
    /// Disposed textures may still be written (`SetData` expected to succeed).
    DisposedWritable,
    /// The frame-blind run's readbacks get one texel changed (checks the policy comparison).
    CorruptFrameBlind,
    /// The replay's final frame gets one pixel changed (checks the replay comparison).
    CorruptReplay,
}

/// How much the model checked: what makes a passing run mean something.
#[derive(Clone, Copy, Debug, Default)]
pub struct Checks {
    /// Errors the rules required (and the engine returned).
    pub errors: u64,
    /// Texels and pixels read back and compared with a known value.
    pub texels: u64,
    /// Occlusion counts compared with the model's.
    pub counts: u64,
}

/// The model's state: every resource, the device's bindings and the passes.
#[derive(Clone, Debug)]
pub struct Model {
    /// What was checked so far.
    pub checks: Checks,
    queries_supported: bool,
    sabotage: Sabotage,
    /// Image 0 is the back buffer; the rest are textures and targets by creation order.
    images: Vec<Image>,
    tex_slots: [Option<usize>; TEXTURES],
    rt_slots: [Option<usize>; TARGETS],
    bufs: Vec<Buf>,
    vb_slots: [Option<usize>; VERTEX_BUFFERS],
    ib_slots: [Option<usize>; INDEX_BUFFERS],
    effects: [Option<EffectM>; EFFECTS],
    queries: [Option<QueryM>; QUERIES],
    bound: Vec<usize>,
    /// A bound target was dropped: recording went back to the back buffer and `Present` is
    /// refused until the next bind.
    bound_destroyed: bool,
    stream: Option<(usize, i32)>,
    indices: Option<usize>,
    applied: Option<EffectM>,
    depth_test: bool,
    batch: Option<Batch>,
    /// The back buffer was presented and discards its content at the next clear or draw.
    back_pending_discard: bool,
    /// Passes opened so far, and whether one is open.
    serial: u64,
    open: bool,
    /// Flushes so far (presents, explicit flushes, readbacks).
    epoch: u64,
    /// Successful presents.
    pub presents: u64,
}

const BLACK: Px = Px::Exact([0, 0, 0, 255]);

impl Model {
    /// A fresh device's state; `queries_supported` is whether the backend has occlusion queries
    /// (SDL_gpu has none).
    pub fn new(queries_supported: bool, sabotage: Sabotage) -> Model {
        let (w, h) = BACK_BUFFER;
        let back = Image {
            kind: ImageKind::BackBuffer,
            levels: vec![Surface::new(w, h, Px::Undefined, false)],
            disposed: false,
            mips_dirty: false,
        };
        Model {
            checks: Checks::default(),
            queries_supported,
            sabotage,
            images: vec![back],
            tex_slots: Default::default(),
            rt_slots: Default::default(),
            bufs: Vec::new(),
            vb_slots: Default::default(),
            ib_slots: Default::default(),
            effects: Default::default(),
            queries: Default::default(),
            bound: Vec::new(),
            bound_destroyed: false,
            stream: None,
            indices: None,
            applied: None,
            // XNA's default DepthStencilState is Default: depth test and writes on.
            depth_test: true,
            batch: None,
            back_pending_discard: true,
            serial: 0,
            open: false,
            epoch: 0,
            presents: 0,
        }
    }

    /// Whether a sprite batch is open (the runner ends it before its final readbacks).
    pub fn batch_open(&self) -> bool {
        self.batch.is_some()
    }

    /// The slots that hold a texture, and those that hold a target.
    pub fn live_images(&self) -> (Vec<u8>, Vec<u8>) {
        let t = (0..TEXTURES).filter(|&i| self.tex_slots[i].is_some()).map(|i| i as u8);
        let rt = (0..TARGETS).filter(|&i| self.rt_slots[i].is_some()).map(|i| i as u8);
        (t.collect(), rt.collect())
    }

    /// The size of the image in a slot, if any.
    pub fn size_of(&self, tex: Tex) -> Option<(i32, i32)> {
        let id = self.image_id(tex)?;
        let s = &self.images[id].levels[0];
        Some((s.w, s.h))
    }

    fn image_id(&self, tex: Tex) -> Option<usize> {
        match tex {
            Tex::T(i) => self.tex_slots[i as usize],
            Tex::Rt(i) => self.rt_slots[i as usize],
        }
    }

    fn primary(&self) -> usize {
        self.bound.first().copied().unwrap_or(0)
    }

    fn primary_size(&self) -> (i32, i32) {
        let s = &self.images[self.primary()].levels[0];
        (s.w, s.h)
    }

    fn is_bound(&self, id: usize) -> bool {
        self.bound.contains(&id)
    }

    // ---- passes and flushes -------------------------------------------------------------

    /// A clear or draw goes into the open pass, or opens one (where a presented back buffer
    /// discards its content).
    fn open_pass(&mut self) {
        if !self.open {
            self.serial += 1;
            self.open = true;
            if self.bound.is_empty() && self.back_pending_discard {
                self.images[0].levels[0].fill(BLACK);
                self.back_pending_discard = false;
            }
        }
    }

    /// An upload or readback ends the open pass.
    fn close_pass(&mut self) {
        self.open = false;
    }

    fn flush(&mut self) {
        self.epoch += 1;
        self.close_pass();
    }

    /// Marks every begun span uncertain: something happened that xnagraph's contract does not
    /// say ends a pass, though the engine may record it outside one.
    fn unsettle_spans(&mut self) {
        for q in self.queries.iter_mut().flatten() {
            if let Phase::Begun { uncertain, .. } = &mut q.phase {
                *uncertain = true;
            }
        }
    }

    /// Whether some query's span is open (a disposed query's span no longer is).
    fn query_begun(&self) -> bool {
        self.queries.iter().flatten().any(|q| !q.disposed && matches!(q.phase, Phase::Begun { .. }))
    }

    fn position(&self) -> u64 {
        if self.open {
            self.serial
        } else {
            self.serial + 1
        }
    }

    /// Draws `fill` into the primary target and adds what passed to the begun spans.
    fn paint(&mut self, fill: &Fill) {
        self.open_pass();
        let primary = self.primary();
        self.images[primary].mips_dirty = true;
        let count = draw(&mut self.images[primary].levels[0], fill);
        for q in self.queries.iter_mut().flatten() {
            if let Phase::Begun { count: c, .. } = &mut q.phase {
                *c = match (*c, count) {
                    (Some(a), Some(b)) => Some(a + b),
                    _ => None,
                };
            }
        }
    }

    // ---- applying -----------------------------------------------------------------------

    /// Checks `outcome` against the rules, then applies `op`. Returns the prediction of what a
    /// readback returned (for the comparisons between runs), or what disagreed.
    pub fn step(&mut self, op: &Op, outcome: &Outcome) -> Result<Option<Vec<Px>>, String> {
        let expect = self.expect(op);
        if !expect.admits(outcome) {
            return Err(format!("expected {expect:?}, got {outcome:?}"));
        }
        let Ok(value) = outcome else {
            if matches!(expect, Expect::Err(_)) {
                self.checks.errors += 1;
            }
            return Ok(self.refused(op));
        };
        self.apply(op, value)
    }
}

/// A vertex standing for one the model does not know.
const UNKNOWN_VERTEX: V = V { x: i8::MIN, y: i8::MIN, z: u8::MAX, c: Rgba([0; 4]), u: 0, v: 0 };

/// The texel a `SetTexels` writes at element `i` of its data.
pub fn texel_color(color: Rgba, pattern: bool, i: usize) -> Rgba {
    if !pattern {
        return color;
    }
    let [r, g, b, a] = color.0;
    let k = (i as u8).wrapping_mul(37);
    Rgba([r ^ k, g.wrapping_add(k), b, a])
}
